import CJack
import RenderCore
import Synchronization

/// One JACK MIDI port of the hub's JACK client (`JackMIDILane`): an input port reading a
/// source, with the places its messages go in JACK's process callback (`routes`: built-in
/// nodes, and the lane's output ports), or an output port writing to a destination. The
/// ports' queue writes it; the render thread reads the generation first, then the rest.
///
/// A route list being rewritten while the render thread reads it may serve one period with
/// old and new routes mixed (a node added or removed a period late): never a port of
/// another client, never past the list's storage.
///
/// - Thread: control (the ports' queue) writes; render reads.
final class JackMIDISlot: @unchecked Sendable {
    /// The most places one source plays directly.
    static let routeCapacity = 16
    /// A packed route's target with this bit set is an output slot's index, not a node's id.
    static let outputBit: UInt32 = 0x8000

    /// The client the port is on (`JackAudioClient.generation`); 0: the slot is free or unbound.
    let generation = Atomic<Int>(0)
    private let portBits = Atomic<Int>(0)
    /// The owner's name for the source (its port address), stable while the slot serves it.
    let key = Atomic<Int>(-1)
    private let routeCount = Atomic<Int>(0)
    /// Each route packed: its target (high 16 bits: a node's id in the running program, or
    /// `outputBit` and an output slot's index), the channels that pass (low 16 bits, bit n:
    /// 0-based channel n).
    private let routes = (0..<routeCapacity).map { _ in PackedRoute() }
    private let unitRoutes = Atomic<Bool>(false)
    private let portRoutes = Atomic<Bool>(false)

    /// The queue's own: the full JACK name of the source read or the destination written, and the port's.
    var peer = ""
    var portName = ""

    /// The render thread's own, for an output slot: the period's buffer once cleared, and the
    /// last frame written in it (JACK takes a buffer's events in time order).
    var periodBuffer: UnsafeMutableRawPointer?
    var lastWritten: UInt32 = 0

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

    /// Sets the routes, each packed (see `routes`).
    /// - Thread: control (the queue).
    func setRoutes(_ packed: [UInt32]) {
        let kept = packed.prefix(Self.routeCapacity)
        routeCount.store(min(routeCount.load(ordering: .relaxed), kept.count), ordering: .releasing)
        for (index, route) in kept.enumerated() { routes[index].bits.store(route, ordering: .relaxed) }
        unitRoutes.store(kept.contains { $0 >> 16 & Self.outputBit == 0 }, ordering: .relaxed)
        portRoutes.store(kept.contains { $0 >> 16 & Self.outputBit != 0 }, ordering: .relaxed)
        routeCount.store(kept.count, ordering: .releasing)
    }

    /// Whether the source plays any node directly.
    /// - Thread: render.
    var servesUnits: Bool { unitRoutes.load(ordering: .relaxed) && routeCount.load(ordering: .acquiring) > 0 }

    /// Whether the source plays JACK ports directly, and every output slot they go through
    /// is on the client of `generation` (else the owner plays them all).
    /// - Thread: render.
    func servesPorts(through outputs: [JackMIDISlot], generation: Int) -> Bool {
        guard portRoutes.load(ordering: .relaxed) else { return false }
        for index in 0..<routeCount.load(ordering: .acquiring) {
            let target = routes[index].bits.load(ordering: .relaxed) >> 16
            guard target & Self.outputBit != 0 else { continue }
            let slot = Int(target & ~Self.outputBit)
            guard slot < outputs.count, outputs[slot].generation.load(ordering: .acquiring) == generation else { return false }
        }
        return true
    }

    /// Writes one JACK event of the source (its bytes, at `time` in the period) into the
    /// period's buffer of each output slot it goes to, after what is there already; an event
    /// with no status byte first (malformed: JACK MIDI has no running status) goes nowhere.
    /// - Thread: render.
    func write(_ data: UnsafeMutablePointer<UInt8>, count: Int, at time: UInt32, to outputs: [JackMIDISlot]) {
        let status = data[0]
        guard status >= 0x80 else { return }  // JACK MIDI events start with their status: not a message
        for index in 0..<routeCount.load(ordering: .acquiring) {
            let route = routes[index].bits.load(ordering: .relaxed), target = route >> 16
            guard target & Self.outputBit != 0, status >= 0xF0 || route & (1 << UInt32(status & 0x0F)) != 0 else { continue }
            let slot = Int(target & ~Self.outputBit)
            guard slot < outputs.count, let buffer = outputs[slot].periodBuffer else { continue }
            let at = max(time, outputs[slot].lastWritten)
            if jack_midi_event_write(buffer, at, data, count) == 0 { outputs[slot].lastWritten = at }
        }
    }

    /// Inserts `event` (a channel event at its frame in the block) for each node it goes to,
    /// keeping `buffer`'s first `count` events sorted by frame.
    /// - Returns: events dropped because `buffer` was full.
    /// - Thread: render.
    func deliver(_ event: RenderEvent, into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        var dropped = 0
        for index in 0..<routeCount.load(ordering: .acquiring) {
            let route = routes[index].bits.load(ordering: .relaxed)
            guard route >> 16 & Self.outputBit == 0, route & (1 << UInt32(event.channel & 0x0F)) != 0 else { continue }
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
