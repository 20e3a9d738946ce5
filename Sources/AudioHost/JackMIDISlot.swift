import CJack
import RenderCore
import Synchronization

/// One JACK MIDI input port of the hub's JACK client (`JackMIDILane`): the port, the source
/// it reads, and the built-in nodes its channel messages go to in JACK's process callback.
/// The ports' queue writes it; the render thread reads the generation first, then the rest.
///
/// A route list being rewritten while the render thread reads it may serve one period with
/// old and new routes mixed (a node added or removed a period late): never a port of
/// another client, never past the list's storage.
///
/// - Thread: control (the ports' queue) writes; render reads.
final class JackMIDISlot: @unchecked Sendable {
    /// The most nodes one source plays directly.
    static let routeCapacity = 16

    /// The client the port is on (`JackAudioClient.generation`); 0: the slot is free or unbound.
    let generation = Atomic<Int>(0)
    private let portBits = Atomic<Int>(0)
    /// The owner's name for the source (its port address), stable while the slot serves it.
    let key = Atomic<Int>(-1)
    private let routeCount = Atomic<Int>(0)
    /// Each route packed: the node's id in the running program (high 16 bits), the channels
    /// that pass (low 16 bits, bit n: 0-based channel n).
    private let routes = (0..<routeCapacity).map { _ in PackedRoute() }

    /// The queue's own: the source's full JACK name and the port's.
    var source = ""
    var portName = ""

    /// - Thread: render.
    var port: OpaquePointer? { OpaquePointer(bitPattern: portBits.load(ordering: .relaxed)) }

    /// - Thread: control (the queue).
    func bind(_ port: OpaquePointer, named name: String, generation: Int) {
        portBits.store(Int(bitPattern: UnsafeRawPointer(port)), ordering: .relaxed)
        portName = name
        self.generation.store(generation, ordering: .releasing)
    }

    /// Unbinds; returns the port it held.
    /// - Thread: control (the queue).
    func unbind() -> OpaquePointer? {
        let held = generation.load(ordering: .relaxed) != 0 ? port : nil
        generation.store(0, ordering: .releasing)
        portBits.store(0, ordering: .relaxed)
        portName = ""
        return held
    }

    /// - Thread: control (the queue).
    func setRoutes(_ list: [JackMIDILane.Route]) {
        let kept = list.prefix(Self.routeCapacity)
        routeCount.store(min(routeCount.load(ordering: .relaxed), kept.count), ordering: .releasing)
        for (index, route) in kept.enumerated() {
            routes[index].bits.store(UInt32(route.node) << 16 | UInt32(route.channelMask), ordering: .relaxed)
        }
        routeCount.store(kept.count, ordering: .releasing)
    }

    /// Whether any node is played directly from this source.
    /// - Thread: render.
    var servesNodes: Bool { routeCount.load(ordering: .acquiring) > 0 }

    /// Inserts `event` (a channel event at its frame in the block) for each node it goes to,
    /// keeping `buffer`'s first `count` events sorted by frame.
    /// - Returns: events dropped because `buffer` was full.
    /// - Thread: render.
    func deliver(_ event: RenderEvent, into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        var dropped = 0
        for index in 0..<routeCount.load(ordering: .acquiring) {
            let route = routes[index].bits.load(ordering: .relaxed)
            guard route & (1 << UInt32(event.channel & 0x0F)) != 0 else { continue }
            guard count < capacity else {
                dropped += 1
                continue
            }
            var routed = event
            routed.node = UInt16(truncatingIfNeeded: route >> 16)
            LiveEventTiming.insert(routed, into: buffer, count: &count)
        }
        return dropped
    }
}

/// One route of a slot, in a cell of its own (an atomic cannot be an array's element).
/// - Thread: control (the queue) writes; render reads.
private final class PackedRoute: Sendable {
    let bits = Atomic<UInt32>(0)
}

extension RenderEvent {
    /// The render event for one JACK MIDI event holding a channel voice message; nil for
    /// anything else (system messages, SysEx, a short or malformed event).
    /// - Thread: render (no allocation).
    init?(jackEvent bytes: UnsafePointer<UInt8>, count: Int, frame: UInt32) {
        guard count >= 2 else { return nil }
        let status = bytes[0], channel = status & 0x0F, data1 = bytes[1] & 0x7F
        let data2: UInt8 = count >= 3 ? bytes[2] & 0x7F : 0
        let needsTwo = status & 0xF0 != 0xC0 && status & 0xF0 != 0xD0
        guard !needsTwo || count >= 3 else { return nil }
        switch status & 0xF0 {
        case 0x80: self.init(frame: frame, kind: .noteOff, channel: channel, data1: data1, data2: data2)
        case 0x90: self.init(frame: frame, kind: data2 == 0 ? .noteOff : .noteOn, channel: channel, data1: data1, data2: data2)
        case 0xA0: self.init(frame: frame, kind: .polyPressure, channel: channel, data1: data1, data2: data2)
        case 0xB0: self.init(frame: frame, kind: .controlChange, channel: channel, data1: data1, data2: data2)
        case 0xC0: self.init(frame: frame, kind: .programChange, channel: channel, data1: data1)
        case 0xD0: self.init(frame: frame, kind: .channelPressure, channel: channel, data1: data1)
        case 0xE0: self.init(frame: frame, kind: .pitchBend, channel: channel, bend: UInt16(data1) | UInt16(data2) << 7)
        default: return nil
        }
    }
}
