import CJack
import MIDICore
import RenderCore
import Synchronization

/// JACK MIDI routed in JACK's process callback, at its frame, while the hub plays into JACK.
/// Each JACK MIDI source the hub takes in gets an input port of the hub's JACK client,
/// `from-CLIENT:PORT`, connected from it; each JACK destination an external node a source
/// reaches straight plays gets an output port, `to-CLIENT:PORT`, connected to it. In each
/// period the render thread reads the input ports: a message goes at once, at the frame JACK
/// gave it, to the built-in nodes and the output ports the owner said its source plays
/// directly (`Route`) — in the period it was sent, no hop through another thread — and every
/// message goes on to the owner (`drain`), which does the rest as for any live input
/// (mappings, a take, ALSA ports) and skips what the lane served (`Received`).
///
/// The ports are registered and connected on `JackAudioPorts`' queue (`apply`, `bind`,
/// `connect`, in JackMIDILane+Ports.swift), as the audio nodes' are; the slots carry them to
/// the render thread.
///
/// - Thread: control (the ports' queue) for `apply`, `bind`, `unbind`, `connect`; render
///   (JACK's process thread) for `beginPeriod` and `collect`; owner (one consumer) for `drain`.
public final class JackMIDILane: @unchecked Sendable {
    /// A place a source plays directly: a built-in node (its id in the running program) or a
    /// JACK destination (`key`, the owner's name for it, and its full JACK name); and the
    /// channels that pass (bit n: 0-based channel n; system messages always pass).
    public struct Route: Equatable, Sendable {
        public enum Target: Equatable, Sendable {
            case node(UInt16)
            case port(key: Int, name: String)
        }

        public var target: Target
        public var channelMask: UInt16

        public init(node: UInt16, channelMask: UInt16) {
            target = .node(node)
            self.channelMask = channelMask
        }

        public init(port name: String, key: Int, channelMask: UInt16) {
            target = .port(key: key, name: name)
            self.channelMask = channelMask
        }
    }

    /// A JACK MIDI source the lane reads: `key` is the owner's name for it (its port
    /// address), `source` its full JACK name, `routes` the nodes it plays directly (empty:
    /// the owner routes everything it sends).
    public struct Input: Equatable, Sendable {
        public var key: Int
        public var source: String
        public var routes: [Route]

        public init(key: Int, source: String, routes: [Route]) {
            self.key = key
            self.source = source
            self.routes = routes
        }
    }

    /// A message from a source, for the owner: whether the lane already played it on the
    /// built-in nodes (`servedUnits`) and on the JACK ports (`servedPorts`) its source plays directly.
    public struct Received: Equatable, Sendable {
        public var key: Int
        public var message: MIDIMessage
        public var servedUnits: Bool
        public var servedPorts: Bool
    }

    /// The most sources read at once, and destinations written.
    static let slotCount = 64
    static let outputCount = 32
    /// Where an event's tag in the ring holds what was served (bit 0 the units, bit 1 the
    /// ports); its source's key is below.
    private static let servedShift: UInt64 = 56

    /// Input ports, by source.
    let slots = (0..<slotCount).map { _ in JackMIDISlot() }
    /// Output ports, by destination (a route's `outputBit` target is an index here).
    let outputs = (0..<outputCount).map { _ in JackMIDISlot() }
    /// Render → owner: each event's bytes, tagged with its source's key and what was served.
    private let ring = MIDIEventRing(minimumBytes: 64 * 1024)
    /// Wakes the owner when a period brought events (called on JACK's process thread: must
    /// not block); set once, before the hub joins a server, then `wakeSet`.
    private var wakeHook: (@Sendable () -> Void)?
    private let wakeSet = Atomic<Bool>(false)

    /// The full names of the lane's ports, put in before each is registered (a JACK port
    /// listing must leave them out: they are the hub's own).
    let registered = Mutex<Set<String>>([])

    /// The queue's own: the sources asked for, the ones said to be too many.
    var wanted: [Input] = []
    var reported: Set<Int> = []
    /// The owner's own: parsers by source (a SysEx split over JACK events), the bytes read.
    private var parsers: [Int: MIDIParser] = [:]
    private var bytes: [UInt8] = []

    init() {}

    /// Wakes the owner (the daemon's poll) whenever a period brought events; given once,
    /// before the hub joins a server.
    /// - Thread: control (at start).
    public func wakeOwner(with hook: @escaping @Sendable () -> Void) {
        wakeHook = hook
        wakeSet.store(true, ordering: .releasing)
    }

    /// Whether the JACK port `fullName` is one of the lane's (registered, or being registered).
    /// - Thread: any.
    public func owns(_ fullName: String) -> Bool {
        registered.withLock { $0.contains(fullName) }
    }

    /// Events lost because the owner's ring was full.
    /// - Thread: any.
    public var droppedCount: Int { ring.droppedCount }

    // MARK: - The render thread

    /// Routes this period's events (`frames` on the client of `generation`): each goes to the
    /// output ports its source plays directly, at its frame, and on to the owner, saying what
    /// was served (`rendering`: the graph renders this period, and `collect` will give the
    /// built-in nodes their part for each block).
    /// - Thread: render (JACK's process thread: no lock, no allocation).
    func beginPeriod(frames: Int, generation: Int, rendering: Bool) {
        guard generation != 0 else { return }
        for index in 0..<outputs.count {  // (`for … where` over the slots allocates in a debug build)
            let output = outputs[index]
            output.periodBuffer = nil
            guard output.generation.load(ordering: .acquiring) == generation, let port = output.port,
                  let buffer = jack_port_get_buffer(port, jack_nframes_t(frames)) else { continue }
            jack_midi_clear_buffer(buffer)
            output.periodBuffer = buffer
            output.lastWritten = 0
        }
        var forwarded = false
        for index in 0..<slots.count {
            let slot = slots[index]
            guard slot.generation.load(ordering: .acquiring) == generation else { continue }
            guard let port = slot.port, let portBuffer = jack_port_get_buffer(port, jack_nframes_t(frames)) else { continue }
            let servesPorts = slot.servesPorts(through: outputs, generation: generation)
            let served: UInt8 = (rendering && slot.servesUnits ? 1 : 0) | (servesPorts ? 2 : 0)
            let key = slot.key.load(ordering: .relaxed)
            var event = jack_midi_event_t()
            for eventIndex in 0..<Int(jack_midi_get_event_count(portBuffer)) {  // (a range of UInt32 allocates in a debug build)
                guard jack_midi_event_get(&event, portBuffer, UInt32(eventIndex)) == 0, let data = event.buffer, event.size > 0
                else { continue }
                if servesPorts { slot.write(data, count: event.size, at: event.time, to: outputs) }
                forward(data, count: event.size, key: key, served: served)
                forwarded = true
            }
        }
        guard forwarded else { return }
        ring.publish()
        if wakeSet.load(ordering: .acquiring) { wakeHook?() }
    }

    /// Inserts into `buffer` the channel messages of the ports' events in this block
    /// (`offset ..< offset + frames` of the period of `periodFrames` on the client of
    /// `generation`), at their frames, for each node their source plays directly.
    /// - Returns: events dropped because `buffer` was full.
    /// - Thread: render (JACK's process thread: no lock, no allocation).
    func collect(offset: Int, frames: Int, periodFrames: Int, generation: Int,
                 into buffer: UnsafeMutablePointer<RenderEvent>, count: inout Int, capacity: Int) -> Int {
        guard generation != 0 else { return 0 }
        var dropped = 0
        let end = offset + frames
        for index in 0..<slots.count {  // (`for … where` over the slots allocates in a debug build)
            let slot = slots[index]
            guard slot.generation.load(ordering: .acquiring) == generation, slot.servesUnits else { continue }
            guard let port = slot.port, let portBuffer = jack_port_get_buffer(port, jack_nframes_t(periodFrames)) else { continue }
            var event = jack_midi_event_t()
            for eventIndex in 0..<Int(jack_midi_get_event_count(portBuffer)) {  // (a range of UInt32 allocates in a debug build)
                guard jack_midi_event_get(&event, portBuffer, UInt32(eventIndex)) == 0, let data = event.buffer else { continue }
                let time = Int(event.time)
                guard time >= offset, time < end || end >= periodFrames,
                      let message = RenderEvent(jackEvent: data, count: event.size, frame: UInt32(min(time - offset, frames - 1)))
                else { continue }
                dropped += slot.deliver(message, into: buffer, count: &count, capacity: capacity)
            }
        }
        return dropped
    }

    /// Stages one event's bytes for the owner, or counts it lost when the ring is full.
    private func forward(_ data: UnsafeMutablePointer<UInt8>, count: Int, key: Int, served: UInt8) {
        ring.stage(data, count: count, tag: UInt64(key) | UInt64(served) << Self.servedShift)
    }

    // MARK: - The owner

    /// Every message the ports received since the last call, oldest first.
    /// - Thread: owner (the one consumer).
    public func drain(into received: inout [Received]) {
        while let tag = ring.pop(into: &bytes) {
            let key = Int(tag & (1 << Self.servedShift - 1)), served = tag >> Self.servedShift
            bytes.withUnsafeBufferPointer { event in
                parsers[key, default: MIDIParser()].feed(event) { message in
                    received.append(Received(key: key, message: message, servedUnits: served & 1 != 0, servedPorts: served & 2 != 0))
                }
            }
        }
    }
}
