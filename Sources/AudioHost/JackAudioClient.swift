import ALSA
import CJack
import Glibc
import Synchronization

/// The hub's sound as a JACK client: two output ports, `left` and `right`, filled in
/// JACK's process callback by a `RenderLoop` (one JACK period a block, rendered in parts
/// when the period is longer than the engine's largest block). JACK's clock paces the
/// graph; JACK's process thread is the render thread, at the priority the server gives it.
///
/// The server stopping (or dropping the client) clears `DriverState.running` and is told
/// by `serverGone`; a client whose server went is never closed (libjack aborts on closing
/// it) but left for the process's end. Xruns the server reports are counted.
///
/// The client is activated and connected as it is opened (round trips to the server, on the
/// thread that opens it: a worker once the daemon runs); until `play` hands it a loop, its
/// ports play silence.
///
/// - Thread: control for `init`, `activate`, `connect`, `play`, `close`; `process` on JACK's
///   process thread; `xruns` and `serverGone` from any thread.
final class JackAudioClient: @unchecked Sendable {
    private let client: OpaquePointer
    private let left: OpaquePointer
    private let right: OpaquePointer
    /// The server's name for this client (JACK may add a suffix to a taken name).
    let name: String
    let sampleRate: Int
    /// Frames in a JACK period when the client opened.
    let periodFrames: Int
    /// Xruns the server reported since the client opened.
    let xruns = Atomic<Int>(0)
    private let gone = Atomic<Bool>(false)
    /// Held for each of the server's round trips (`request`).
    private let requests = Mutex<Void>(())
    /// Why the server let the client go (written once in the shutdown callback, before `gone`).
    private var goneReason = ""
    /// JACK's transport as the process thread last saw it change (`transport`).
    private let transportRolling = Atomic<Bool>(false)
    private let transportFrame = Atomic<Int64>(0)
    /// Counts the transport's changes: started, stopped, located (a frame not where the last
    /// period's end put it).
    private let transportChanges = Atomic<Int>(0)
    /// The process thread's own: the last period's transport.
    private var lastRolling = false
    private var lastFrame: Int64 = -1
    private var loop: RenderLoop?
    private var state: DriverState?
    private var active = false
    private var closed = false
    /// Clients whose server went: kept for the process's life (the server's threads may
    /// still hold them; libjack aborts on closing them).
    private static let abandoned = Mutex<[JackAudioClient]>([])
    /// Other apps' sound into the graph through this client's input ports.
    private let inputs: JackAudioPorts?
    /// This client among all the process has opened (from 1): which client a node's ports are on.
    let generation: Int
    private static let opened = Atomic<Int>(0)

    /// JACK's type name for audio ports (`JACK_DEFAULT_AUDIO_TYPE`).
    static let audioType = "32 bit float mono audio"
    /// JACK's type name for MIDI ports (`JACK_DEFAULT_MIDI_TYPE`).
    static let midiType = "8 bit raw midi"

    /// Opens the client `clientName` (never starting a server) and registers its ports;
    /// `inputs` are the nodes that take other apps' sound through it.
    /// - Throws: `PCMError.jackUnavailable` naming why.
    /// - Thread: control.
    init(clientName: String, inputs: JackAudioPorts? = nil) throws(PCMError) {
        var status = jack_status_t(0)
        guard let client = midihub_jack_audio_open(clientName, &status) else {
            throw .jackUnavailable(reason: Self.reason(forStatus: status.rawValue))
        }
        let output = UInt(JackPortIsOutput.rawValue)
        guard let left = jack_port_register(client, "left", Self.audioType, output, 0),
              let right = jack_port_register(client, "right", Self.audioType, output, 0) else {
            jack_client_close(client)
            throw .jackUnavailable(reason: "the JACK server refused midihub's output ports")
        }
        self.client = client
        self.left = left
        self.right = right
        self.inputs = inputs
        generation = Self.opened.add(1, ordering: .relaxed).newValue
        name = String(cString: jack_get_client_name(client))
        sampleRate = Int(jack_get_sample_rate(client))
        periodFrames = Int(jack_get_buffer_size(client))
    }

    /// Whether the server stopped or dropped the client.
    /// - Thread: any.
    var serverGone: Bool { gone.load(ordering: .acquiring) }

    /// Why the server let the client go; read once `serverGone`.
    /// - Thread: any, after `serverGone` was seen true.
    var stopReason: String { goneReason }

    /// Starts the process callback (silence until `play`); the server stopping clears
    /// `state.running`.
    /// - Throws: `PCMError.jackUnavailable` when the server refuses to activate the client.
    /// - Thread: control (once).
    func activate(state: DriverState) throws(PCMError) {
        self.state = state
        let me = Unmanaged.passUnretained(self).toOpaque()
        jack_set_process_callback(client, { frames, argument in
            Unmanaged<JackAudioClient>.fromOpaque(argument!).takeUnretainedValue().process(frames: Int(frames))
            return 0
        }, me)
        jack_set_xrun_callback(client, { argument in
            Unmanaged<JackAudioClient>.fromOpaque(argument!).takeUnretainedValue().xruns.add(1, ordering: .relaxed)
            return 0
        }, me)
        jack_on_info_shutdown(client, { _, reason, argument in
            let me = Unmanaged<JackAudioClient>.fromOpaque(argument!).takeUnretainedValue()
            me.goneReason = reason.map { String(cString: $0) } ?? "no reason given"
            me.gone.store(true, ordering: .releasing)
            me.state?.running.store(false, ordering: .releasing)
        }, me)
        jack_set_port_registration_callback(client, { _, _, argument in
            let me = Unmanaged<JackAudioClient>.fromOpaque(argument!).takeUnretainedValue()
            me.inputs?.portsChanged(on: me)
        }, me)
        guard request({ jack_activate(client) }) == 0 else {
            throw .jackUnavailable(reason: "the JACK server would not activate midihub's client")
        }
        active = true
        inputs?.adopt(self)
    }

    /// Renders `loop` from the next period on: stored before `state.running` is set, which
    /// the process thread reads first.
    /// - Thread: control (once, after `activate`).
    func play(_ loop: RenderLoop) {
        self.loop = loop
        state?.running.store(true, ordering: .releasing)
    }

    /// One period: the loop renders into the two ports' buffers (silence before `play` and
    /// once it is over).
    /// - Thread: render (JACK's process thread).
    private func process(frames: Int) {
        noteTransport(frames: frames)
        let rendering = state?.running.load(ordering: .acquiring) == true && loop != nil
        inputs?.beginPeriod(frames: frames, generation: generation, rendering: rendering)
        guard let leftBuffer = jack_port_get_buffer(left, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self),
              let rightBuffer = jack_port_get_buffer(right, jack_nframes_t(frames))?.assumingMemoryBound(to: Float.self)
        else { return }
        guard rendering, let loop else {
            leftBuffer.update(repeating: 0, count: frames)
            rightBuffer.update(repeating: 0, count: frames)
            return
        }
        loop.render(left: leftBuffer, right: rightBuffer, frames: frames)
    }

    /// Makes the hub JACK's timebase master (`true`: its tempo, bars and beats are what
    /// JACK's transport reports; the song's while one plays) or lets go of it.
    /// - Returns: false when JACK refused.
    /// - Thread: control, after `activate`.
    @discardableResult
    func lead(_ leading: Bool) -> Bool {
        guard leading else { return request { jack_release_timebase(client) } == 0 }
        let me = Unmanaged.passUnretained(self).toOpaque()
        return request {
            jack_set_timebase_callback(client, 0, { _, _, position, _, argument in
                guard let position else { return }
                Unmanaged<JackAudioClient>.fromOpaque(argument!).takeUnretainedValue().fillTimebase(position)
            }, me)
        } == 0
    }

    /// Moves JACK's transport: to `seconds`, rolling or stopped (the hub leads it).
    /// - Thread: control.
    func moveTransport(rolling: Bool, seconds: Double) {
        jack_transport_locate(client, jack_nframes_t(max(0, seconds) * Double(sampleRate)))
        if rolling { jack_transport_start(client) } else { jack_transport_stop(client) }
    }

    /// Ticks to a beat in the timebase JACK is given.
    static let ticksPerBeat = 1920.0

    /// JACK's position in bars, beats and ticks from the timeline the hub rendered last.
    /// - Thread: render (JACK's process thread, after `process`).
    private func fillTimebase(_ position: UnsafeMutablePointer<jack_position_t>) {
        guard let host = loop?.lastHost else { return }
        let beatType = Double(host.timeSignatureDenominator), quartersPerBeat = 4 / beatType
        let inBar = max(0, host.beat - host.barStartBeat) / quartersPerBeat
        position.pointee.valid = JackPositionBBT
        position.pointee.bar = Int32(host.bar)
        position.pointee.beat = Int32(inBar) + 1
        position.pointee.tick = Int32((inBar - inBar.rounded(.down)) * Self.ticksPerBeat)
        position.pointee.bar_start_tick = Double(host.bar - 1) * Double(host.timeSignatureNumerator) * Self.ticksPerBeat
        position.pointee.beats_per_bar = Float(host.timeSignatureNumerator)
        position.pointee.beat_type = Float(beatType)
        position.pointee.ticks_per_beat = Self.ticksPerBeat
        position.pointee.beats_per_minute = host.tempo / quartersPerBeat
    }

    /// Reads JACK's transport for this period and publishes it when it changed.
    /// - Thread: render (JACK's process thread).
    private func noteTransport(frames: Int) {
        var position = jack_position_t()
        let rolling = jack_transport_query(client, &position) == JackTransportRolling
        let frame = Int64(position.frame)
        let expected = lastRolling ? lastFrame + Int64(frames) : lastFrame
        defer { (lastRolling, lastFrame) = (rolling, frame) }
        guard rolling != lastRolling || frame != expected else { return }
        transportRolling.store(rolling, ordering: .relaxed)
        transportFrame.store(frame, ordering: .relaxed)
        transportChanges.add(1, ordering: .releasing)
    }

    /// JACK's transport as last changed, and how many changes the process thread has seen.
    /// - Thread: any.
    var transport: JackTransportReading {
        while true {
            let changes = transportChanges.load(ordering: .acquiring)
            let reading = JackTransportReading(changes: changes, rolling: transportRolling.load(ordering: .relaxed),
                                               seconds: Double(transportFrame.load(ordering: .relaxed)) / Double(sampleRate))
            if transportChanges.load(ordering: .acquiring) == changes { return reading }
        }
    }

    /// Connects `left` and `right` to `destination`'s ports (see `AudioTarget.jack`): the
    /// first two matching input ports, one each (one port: both to it).
    /// - Returns: the full names of the ports connected to, in order; empty when none matched.
    /// - Thread: control, after `activate`.
    @discardableResult
    func connect(to destination: String) -> [String] {
        connect([jack_port_name(left), jack_port_name(right)].map { String(cString: $0!) }, to: destination)
    }

    /// Connects the two output ports `own` (full names) to `destination`'s: `default` (or any
    /// ALSA name) the system's first two physical playback ports, `jack:GLOB` the first two
    /// input ports whose full names match; one port: both to it.
    /// - Returns: the full names of the ports connected to, in order; empty when none matched.
    /// - Thread: control, after `activate`.
    @discardableResult
    func connect(_ own: [String], to destination: String) -> [String] {
        let targets: [String]
        if destination.hasPrefix("jack:") {
            targets = ports(matching: Self.regex(forGlob: String(destination.dropFirst(5))),
                            flags: UInt(JackPortIsInput.rawValue))
        } else {
            targets = ports(matching: nil, flags: UInt(JackPortIsInput.rawValue | JackPortIsPhysical.rawValue))
        }
        guard let first = targets.first else { return [] }
        let second = targets.count > 1 ? targets[1] : first
        request {
            jack_connect(client, own[0], first)
            jack_connect(client, own[1], second)
        }
        return first == second ? [first] : [first, second]
    }

    /// A node's two ports, `NAME-left` and `NAME-right`.
    /// - Thread: any (a plain value).
    struct PortPair {
        var left: OpaquePointer
        var right: OpaquePointer
        var leftName: String
        var rightName: String
    }

    /// Registers the ports `NAME-left` and `NAME-right`, inputs or outputs; nil when JACK
    /// refuses (a name taken).
    /// - Thread: control (not JACK's threads).
    func registerPair(named name: String, input: Bool) -> PortPair? {
        let flags = UInt(input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue)
        guard let left = register(name + "-left", flags: flags) else { return nil }
        guard let right = register(name + "-right", flags: flags) else {
            unregister(left)
            return nil
        }
        return PortPair(left: left, right: right, leftName: String(cString: jack_port_name(left)),
                        rightName: String(cString: jack_port_name(right)))
    }

    /// Registers the MIDI port `name`, an input or an output; nil when JACK refuses (a name taken).
    /// - Returns: the port and its full name.
    /// - Thread: control (not JACK's threads).
    func registerMIDIPort(named name: String, input: Bool) -> (port: OpaquePointer, fullName: String)? {
        let flags = UInt(input ? JackPortIsInput.rawValue : JackPortIsOutput.rawValue)
        guard let port = register(name, flags: flags, type: Self.midiType) else { return nil }
        return (port, String(cString: jack_port_name(port)))
    }

    /// Registers the port `name`. A server slow to answer (a loaded machine, a heavy period)
    /// can make libjack give up on a registration the server makes a moment later: for up to
    /// a second, a port of this client by that name is taken as the one asked for, or the
    /// registration is asked for again.
    private func register(_ name: String, flags: UInt, type: String = audioType) -> OpaquePointer? {
        for _ in 0..<20 {
            if let port = request({ jack_port_register(client, name, type, flags, 0) }) { return port }
            usleep(50_000)
            if let port = jack_port_by_name(client, self.name + ":" + name), jack_port_is_mine(client, port) != 0 { return port }
            guard !serverGone else { return nil }
        }
        return nil
    }

    /// Takes a port registered by `registerPair` off the client.
    /// - Thread: control.
    func unregister(_ port: OpaquePointer) {
        request { _ = jack_port_unregister(client, port) }
    }

    /// The full names of every JACK audio output port (`physical`: of the sound cards' capture only).
    /// - Thread: control.
    func outputPorts(physical: Bool = false) -> [String] {
        ports(matching: nil, flags: UInt(JackPortIsOutput.rawValue | (physical ? JackPortIsPhysical.rawValue : 0)))
    }

    /// Connects the port `source` to `destination` (full names); nothing when they already are.
    /// - Thread: control.
    func connect(_ source: String, to destination: String) {
        request { _ = jack_connect(client, source, destination) }
    }

    /// The full names of the audio ports with `flags` whose names match `pattern` (a
    /// regular expression; nil: all), in the server's order.
    private func ports(matching pattern: String?, flags: UInt) -> [String] {
        guard let list = jack_get_ports(client, pattern, Self.audioType, flags) else { return [] }
        defer { jack_free(list) }
        var names: [String] = []
        var index = 0
        while let name = list[index] {
            names.append(String(cString: name))
            index += 1
        }
        return names
    }

    /// A glob (`*` any run, `?` one character) as an anchored POSIX extended regex.
    static func regex(forGlob glob: String) -> String {
        var pattern = "^"
        for character in glob {
            switch character {
            case "*": pattern += ".*"
            case "?": pattern += "."
            case ".", "[", "]", "(", ")", "{", "}", "+", "^", "$", "|", "\\": pattern += "\\" + String(character)
            default: pattern.append(character)
            }
        }
        return pattern + "$"
    }

    /// Makes one of the server's round trips: libjack sends a client's requests over one
    /// channel that two threads must not write at once (the ports' queue, a worker, the
    /// opening thread).
    private func request<Result>(_ body: () -> Result) -> Result {
        requests.withLock { _ in body() }
    }

    /// Stops the process callback and closes the client; a client whose server went is
    /// left as it is (see the type's note). Calling it again does nothing.
    /// - Thread: control.
    func close() {
        guard !closed else { return }
        closed = true
        inputs?.release(self, waiting: !serverGone)
        guard !serverGone else {
            Self.abandoned.withLock { $0.append(self) }
            return
        }
        request {
            if active { jack_deactivate(client) }
            jack_client_close(client)
        }
    }

    deinit {
        guard !closed, !serverGone else { return }  // gone: leaked, never closed
        if active { jack_deactivate(client) }
        jack_client_close(client)
    }

    // `jack_status_t` bits, from <jack/types.h>.
    private static let serverFailed: UInt32 = 0x10
    private static let versionError: UInt32 = 0x400

    /// libjack's status bits as the reason for `PCMError.jackUnavailable`.
    static func reason(forStatus status: UInt32) -> String {
        if status & serverFailed != 0 { return "no JACK server running" }
        if status & versionError != 0 { return "the JACK server speaks another protocol version than this libjack" }
        return "the JACK server refused a client (status 0x\(String(status, radix: 16)))"
    }
}

/// JACK's transport as the hub's audio client saw it last change (docs/jack.md, "JACK transport").
///
/// - Thread: any (a plain value).
public struct JackTransportReading: Sendable, Equatable {
    /// How many changes (starts, stops, locates) the client has seen: a new reading when it grows.
    public var changes: Int
    /// Whether JACK's transport rolls.
    public var rolling: Bool
    /// Its position, in seconds from its start (its frame at the server's rate).
    public var seconds: Double

    public init(changes: Int, rolling: Bool, seconds: Double) {
        self.changes = changes
        self.rolling = rolling
        self.seconds = seconds
    }
}
