import Control
import MIDICore
import Testing
@testable import Daemon

/// `parameter-changed` events are paced to 30 a second per parameter, the last value always sent.
@Suite struct ParameterCoalescerTests {
    private static let ms = HostDuration.milliseconds(1)

    private func change(_ parameter: String, _ value: Double, node: String = "synth") -> ControlEvent {
        .parameterChanged(node: node, parameter: parameter, value: value)
    }

    @Test func aSweepAtOneKilohertzReachesSubscribersThirtyTimesASecondEndingOnItsLastValue() {
        var coalescer = ParameterCoalescer()
        var sent: [(time: HostTime, event: ControlEvent)] = []
        // One second of a knob swept at 1 kHz, the event thread woken for each change and
        // whenever the coalescer asked to be.
        var due: HostTime?
        for step in 0..<1000 {
            let now = HostTime.zero + Self.ms * step
            if let time = due, time <= now {
                sent += coalescer.due(at: time).map { (time, $0) }
            }
            sent += coalescer.admit([change("cutoff", Double(step))], at: now).map { (now, $0) }
            due = coalescer.nextDue
        }
        while let time = coalescer.nextDue {
            sent += coalescer.due(at: time).map { (time, $0) }
        }
        #expect(sent.count >= 29 && sent.count <= 31, "\(sent.count) events in a second")
        #expect(sent.last?.event == change("cutoff", 999))
        for (earlier, later) in zip(sent, sent.dropFirst()) {
            #expect(later.time - earlier.time >= coalescer.interval)
        }
    }

    @Test func eachParameterIsPacedOnItsOwnAndOtherEventsPassAtOnce() {
        var coalescer = ParameterCoalescer()
        let first = coalescer.admit([change("cutoff", 1), change("resonance", 1), .sceneChanged(scene: "a")], at: 0)
        #expect(first == [change("cutoff", 1), change("resonance", 1), .sceneChanged(scene: "a")])
        let soon = coalescer.admit([change("cutoff", 2), change("cutoff", 3), .triggerFired(trigger: "panic")], at: HostTime.zero + Self.ms * 5)
        #expect(soon == [.triggerFired(trigger: "panic")])
        #expect(coalescer.nextDue == HostTime.zero + coalescer.interval)
        #expect(coalescer.due(at: HostTime.zero + Self.ms * 20).isEmpty)
        #expect(coalescer.due(at: HostTime.zero + coalescer.interval) == [change("cutoff", 3)])
        #expect(coalescer.nextDue == nil)
    }

    @Test func everythingHeldIsSentWhenTheThreadStops() {
        var coalescer = ParameterCoalescer()
        _ = coalescer.admit([change("cutoff", 1)], at: 0)
        _ = coalescer.admit([change("cutoff", 2), change("gain", 1, node: "strip")], at: HostTime.zero + Self.ms)
        _ = coalescer.admit([change("gain", 2, node: "strip")], at: HostTime.zero + Self.ms * 2)
        #expect(coalescer.due(at: .distantFuture) == [change("cutoff", 2), change("gain", 2, node: "strip")])
    }
}
