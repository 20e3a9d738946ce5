import CJack
import MIDICore
import RenderCore
import Synchronization

/// JACK MIDI read in JACK's process callback at its frame, while the hub plays into JACK.
/// Each JACK MIDI source the hub takes in gets an input port of the hub's JACK client,
/// `from-CLIENT:PORT`, connected from it. In each period the render thread reads the
/// ports: a channel message goes at once, at the frame JACK gave it, to the built-in nodes
/// the owner said the source plays directly (`Route`) — in the period it was sent, no hop
/// through another thread — and every message goes on to the owner (`drain`), which does
/// the rest as for any live input (mappings, a take, external nodes, processors) and skips
/// the nodes the lane served (`Received.servedNodes`).
///
/// The ports are registered and connected on `JackAudioPorts`' queue (`apply`, `bind`,
/// `connect`), as the audio nodes' are; the slots carry them to the render thread.
///
/// - Thread: control (the ports' queue) for `apply`, `bind`, `unbind`, `connect`; render
///   (JACK's process thread) for `collect`; owner (one consumer) for `drain`.
public final class JackMIDILane: @unchecked Sendable {
    /// A built-in node a source plays directly: its id in the running program, and the
    /// channels that pass (bit n: 0-based channel n).
    public struct Route: Equatable, Sendable {
        public var node: UInt16
        public var channelMask: UInt16

        public init(node: UInt16, channelMask: UInt16) {
            self.node = node
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
    /// source's routes.
    public struct Received: Equatable, Sendable {
        public var key: Int
        public var message: MIDIMessage
        public var servedNodes: Bool
    }

    /// The most sources read at once.
    static let slotCount = 64
    /// Bytes before each event's own in the ring: its length (2), whether it was served (1),
    /// and its source's key (8).
    private static let headerBytes = 11

    private let slots = (0..<slotCount).map { _ in JackMIDISlot() }
    /// Render → owner: each event's bytes.
    private let ring = SPSCRing<UInt8>(minimumCapacity: 64 * 1024)
    private let dropped = Atomic<Int>(0)
    /// Wakes the owner when a period brought events (called on JACK's process thread: must
    /// not block); set once, before the hub joins a server, then `wakeSet`.
    private var wakeHook: (@Sendable () -> Void)?
    private let wakeSet = Atomic<Bool>(false)

    /// The queue's own: the sources asked for.
    private var wanted: [Input] = []
    private var reported: Set<Int> = []
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

    /// Events lost because the owner's ring was full.
    /// - Thread: any.
    public var droppedCount: Int { dropped.load(ordering: .relaxed) }

    // MARK: - The ports' queue

    /// Reads exactly `inputs` from now on (on `client` when there is one): ports of sources
    /// no longer asked for leave the client, new sources get ports, connected.
    /// - Thread: control (the ports' queue).
    func apply(_ inputs: [Input], on client: JackAudioClient?, report: (String) -> Void) {
        wanted = inputs
        let keys = Set(inputs.map(\.key))
        for slot in slots where slot.key.load(ordering: .relaxed) >= 0 && !keys.contains(slot.key.load(ordering: .relaxed)) {
            release(slot, on: client)
        }
        for input in inputs { serve(input, on: client, report: report) }
    }

    /// The hub's client joined a server: every source asked for gets a port on it.
    /// - Thread: control (the ports' queue).
    func bind(to client: JackAudioClient, report: (String) -> Void) {
        for slot in slots { _ = slot.unbind() }
        for input in wanted { serve(input, on: client, report: report) }
    }

    /// The client is going: no slot uses its ports any more.
    /// - Thread: control (the ports' queue).
    func unbind() {
        for slot in slots { _ = slot.unbind() }
    }

    /// Connects each source to its port again (JACK's ports changed: a source came back).
    /// - Thread: control (the ports' queue).
    func connect(on client: JackAudioClient) {
        for slot in slots where slot.generation.load(ordering: .relaxed) == client.generation {
            client.connect(slot.source, to: slot.portName)
        }
    }

    private func serve(_ input: Input, on client: JackAudioClient?, report: (String) -> Void) {
        let slot: JackMIDISlot
        if let held = slots.first(where: { $0.key.load(ordering: .relaxed) == input.key }) {
            slot = held
        } else if let free = slots.first(where: { $0.key.load(ordering: .relaxed) < 0 }) {
            slot = free
            slot.key.store(input.key, ordering: .relaxed)
        } else {
            if reported.insert(input.key).inserted {
                report("JACK MIDI from \(input.source) goes through the MIDI thread, a period later: the hub reads "
                       + "\(Self.slotCount) JACK sources in its process callback at most")
            }
            return
        }
        slot.setRoutes(input.routes)
        let moved = slot.source != input.source
        slot.source = input.source
        guard let client, !client.serverGone else { return }
        if slot.generation.load(ordering: .relaxed) != client.generation || moved {
            if let old = slot.unbind() { client.unregister(old) }
            guard let port = client.registerMIDIInput(named: "from-" + input.source) else {
                report("JACK refused the MIDI port \(client.name):from-\(input.source); its MIDI goes nowhere "
                       + "(fix: restart the hub)")
                return
            }
            slot.bind(port.port, named: port.fullName, generation: client.generation)
        }
        client.connect(input.source, to: slot.portName)
    }

    private func release(_ slot: JackMIDISlot, on client: JackAudioClient?) {
        let bound = slot.generation.load(ordering: .relaxed)
        let port = slot.unbind()
        slot.setRoutes([])
        slot.key.store(-1, ordering: .relaxed)
        slot.source = ""
        if let port, let client, !client.serverGone, bound == client.generation { client.unregister(port) }
    }

    // MARK: - The render thread

    /// Hands every event of this period (`frames` on the client of `generation`) to the
    /// owner, saying whether the nodes its source plays were served (`rendering`: the graph
    /// renders this period, and `collect` will be asked for each block).
    /// - Thread: render (JACK's process thread: no lock, no allocation).
    func beginPeriod(frames: Int, generation: Int, rendering: Bool) {
        guard generation != 0 else { return }
        var forwarded = false
        for index in 0..<slots.count {
            let slot = slots[index]
            guard slot.generation.load(ordering: .acquiring) == generation else { continue }
            guard let port = slot.port, let portBuffer = jack_port_get_buffer(port, jack_nframes_t(frames)) else { continue }
            let served = rendering && slot.servesNodes, key = slot.key.load(ordering: .relaxed)
            var event = jack_midi_event_t()
            for eventIndex in 0..<Int(jack_midi_get_event_count(portBuffer)) {  // (a range of UInt32 allocates in a debug build)
                guard jack_midi_event_get(&event, portBuffer, UInt32(eventIndex)) == 0, let data = event.buffer else { continue }
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
            guard slot.generation.load(ordering: .acquiring) == generation, slot.servesNodes else { continue }
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
    private func forward(_ data: UnsafeMutablePointer<UInt8>, count: Int, key: Int, served: Bool) {
        guard count <= Int(UInt16.max), ring.space >= Self.headerBytes + count else {
            dropped.add(1, ordering: .relaxed)
            return
        }
        ring.stage(UInt8(truncatingIfNeeded: count))
        ring.stage(UInt8(truncatingIfNeeded: count >> 8))
        ring.stage(served ? 1 : 0)
        for shift in stride(from: 0, to: 64, by: 8) { ring.stage(UInt8(truncatingIfNeeded: key >> shift)) }
        for index in 0..<count { ring.stage(data[index]) }
    }

    // MARK: - The owner

    /// Every message the ports received since the last call, oldest first.
    /// - Thread: owner (the one consumer).
    public func drain(into received: inout [Received]) {
        while let low = ring.pop(), let high = ring.pop(), let served = ring.pop() {
            let length = Int(low) | Int(high) << 8
            var key = 0
            for shift in stride(from: 0, to: 64, by: 8) { key |= Int(ring.pop() ?? 0) << shift }
            bytes.removeAll(keepingCapacity: true)
            for _ in 0..<length { bytes.append(ring.pop() ?? 0) }
            bytes.withUnsafeBufferPointer { event in
                parsers[key, default: MIDIParser()].feed(event) { message in
                    received.append(Received(key: key, message: message, servedNodes: served != 0))
                }
            }
        }
    }
}
