import AllocationCounter
import RenderCore
import Testing
@testable import Synth

/// A mixer strip's two sends: post fader, each at its own level, into the send outputs the
/// graph hands it.
@Suite(.serialized) struct StripSendTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    /// Runs `strip` for 20 blocks of a constant (1, 1) input with `events` in the first; the
    /// last frame of the main output and of each send (cleared every block, as the graph does).
    private func render(_ strip: MixerStripNode, _ events: [RenderEvent])
        -> (main: (Float, Float), sendA: (Float, Float), sendB: (Float, Float)) {
        strip.prepare(format: format)
        let main = AudioBuffer(channels: 2, capacity: 64), a = AudioBuffer(channels: 2, capacity: 64)
        let b = AudioBuffer(channels: 2, capacity: 64)
        let sends = [a.bus, b.bus]
        for block in 0..<20 {
            main.left.update(repeating: 1, count: 64)
            main.right.update(repeating: 1, count: 64)
            for buffer in [a, b] { buffer.bus.clear(frames: 64) }
            let list = block == 0 ? events : []
            list.withUnsafeBufferPointer { list in
                sends.withUnsafeBufferPointer { sends in
                    strip.process(ProcessContext(frames: 64, events: list, bus: main.bus, host: HostSync(), sends: sends))
                }
            }
        }
        return ((main.left[63], main.right[63]), (a.left[63], a.right[63]), (b.left[63], b.right[63]))
    }

    private func set(_ parameter: MixerStripNode.Parameter, _ value: Float) -> RenderEvent {
        .parameter(node: 0, id: parameter.rawValue, value: value, frame: 0)
    }

    @Test func sendsAreOffUntilTurnedUp() {
        let out = render(MixerStripNode(), [])
        #expect(out.main == (1, 1))
        #expect(out.sendA == (0, 0) && out.sendB == (0, 0))
        #expect(MixerStripNode().sendOutputs == ["send a", "send b"])
    }

    @Test func eachSendCarriesTheStripsOutputAtItsLevel() {
        let out = render(MixerStripNode(), [set(.sendA, -6), set(.sendB, 0)])
        #expect(abs(out.sendA.0 - 0.501) < 0.005 && abs(out.sendA.1 - 0.501) < 0.005, "send a at -6 dB: \(out.sendA)")
        #expect(abs(out.sendB.0 - 1) < 1e-4, "send b at 0 dB: \(out.sendB)")
        #expect(out.main == (1, 1), "the strip's own output is unchanged by its sends")
    }

    @Test func sendsArePostFaderPanAndMute() {
        let faded = render(MixerStripNode(), [set(.sendA, 0), set(.gain, -12), set(.pan, -1)])
        #expect(abs(faded.sendA.0 - 0.251) < 0.005 && abs(faded.sendA.1) < 1e-3, "the send follows fader and pan: \(faded.sendA)")
        let muted = render(MixerStripNode(), [set(.sendA, 0), set(.mute, 1)])
        #expect(abs(muted.sendA.0) < 1e-6, "a muted strip sends nothing")
    }

    @Test func sendingAllocatesNothing() {
        let strip = MixerStripNode()
        strip.prepare(format: format)
        let main = AudioBuffer(channels: 2, capacity: 64), a = AudioBuffer(channels: 2, capacity: 64)
        let b = AudioBuffer(channels: 2, capacity: 64)
        let sends = [a.bus, b.bus]
        let events = [set(.sendA, -3), set(.sendB, -20), set(.pan, 0.3)]
        let counted = AllocationCounter.session {
            AllocationCounter.watchCurrentThread()
            events.withUnsafeBufferPointer { events in
                sends.withUnsafeBufferPointer { sends in
                    for _ in 0..<1_000 {
                        main.left.update(repeating: 0.5, count: 64)
                        main.right.update(repeating: 0.5, count: 64)
                        strip.process(ProcessContext(frames: 64, events: events, bus: main.bus, host: HostSync(), sends: sends))
                    }
                }
            }
        }
        #expect(counted == 0, "the strip's sends allocated \(counted) times")
        #expect(a.left[63] > 0)
    }
}
