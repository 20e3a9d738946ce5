import Control
import Glibc
import NetworkMIDI
import OSC
import RTPMIDI
import Synchronization

/// The OSC server's thread: reads packets (`OSCTransports`: UDP and TCP), carries out what
/// their messages ask over one control connection of its own, and sends the daemon's changes
/// to the registered surfaces (`OSCSurfaces`), each when its turn comes.
///
/// - Thread: control (`midihub-osc`, everything here; handed to that thread once as it starts).
final class OSCSession: @unchecked Sendable {
    private let transports: OSCTransports
    /// MIDI by OSC; nil when the sequencer could not be opened (`/midi` is refused then).
    private let midi: OSCMIDIPort?
    private let midiUnavailable: String
    private let socketPath: ControlSocketPath
    private let log: @Sendable (String) -> Void
    private var client: ControlClient?
    private var space = OSCAddressSpace(nodes: [], scenes: [], triggers: [])
    private var spaceRead = -Double.infinity
    private var surfaces = OSCSurfaces()
    /// This turn's requests, with their senders (`carryOutPending`).
    private var pending: [(request: OSCRequest, peer: OSCPeer)] = []
    /// Messages of bundles whose time has not come, with their sender.
    private var held: [(time: Double, message: OSCMessage, from: OSCPeer)] = []
    /// The most messages of future bundles kept at once: beyond it a surface's bundle is
    /// refused (`/error`), so no sender can make the server hold without bound.
    static let maximumHeld = 1_024
    private var dropped = 0
    private var lastDropReport = -Double.infinity

    init(transports: OSCTransports, socket: ControlSocketPath, log: @escaping @Sendable (String) -> Void) {
        self.transports = transports
        socketPath = socket
        self.log = log
        do {
            midi = try OSCMIDIPort()
            midiUnavailable = ""
        } catch {
            midi = nil
            midiUnavailable = "\(error)"
            log("warning: OSC: no MIDI by OSC, the sequencer cannot be opened: \(error)")
        }
    }

    /// Runs until `stopping` is set (and `wakeup` signalled).
    func run(until stopping: borrowing Atomic<Bool>, wakeup: WakePipe, takeEvents: () -> [ControlEvent]) {
        while !stopping.load(ordering: .acquiring) {
            transports.wait(milliseconds: pollTimeout(now: Self.now()), wakeup: wakeup, alsoWatching: midi?.descriptors ?? [])
            transports.receive { peer, arrival in
                switch arrival {
                case .packet(let bytes): receive(bytes, from: peer)
                case .unreadable(let error): drop("\(error)", from: peer)
                case .closed: surfaces.unregister(peer)
                case .refused: drop("more than \(OSCTransports.maximumConnections) TCP connections; closed", from: peer)
                case .notAllowed: drop("not in the allow-list (serve --allow)", from: peer, answering: false)
                }
            }
            carryOutPending()
            for message in midi?.received() ?? [] {
                guard let shown = OSCAddressSpace.midiFeedback(message) else { continue }
                for destination in surfaces.destinations { send(shown, to: destination) }
            }
            let now = Self.now()
            runHeld(at: now)
            for event in takeEvents() { send(surfaces.offer(space.feedback(for: event), at: now)) }
            send(surfaces.due(at: now))
            reportDrops(at: now)
        }
    }

    /// Milliseconds until a held bundle or a waiting change is due; at most 200.
    private func pollTimeout(now: Double) -> Int32 {
        let next = [held.first?.time, surfaces.nextDue].compactMap { $0 }.min()
        guard let next else { return 200 }
        return Int32(min(max((next - now) * 1000, 0).rounded(.up), 200))
    }

    private func receive(_ bytes: [UInt8], from peer: OSCPeer) {
        let packet: OSCPacket
        do {
            packet = try OSCPacket(decoding: bytes)
        } catch {
            drop("\(error)", from: peer)
            return
        }
        surfaces.register(peer, at: Self.now())
        let now = Self.now()
        for (message, timeTag) in packet.messages {
            let time = timeTag.isImmediate ? now : Self.monotonic(of: timeTag, now: now)
            if time <= now {
                enqueue(message, from: peer, at: timeTag.isImmediate ? nil : time)  // a moment just passed: still its frame
            } else if held.count >= Self.maximumHeld {
                drop("\(Self.maximumHeld) timed messages wait already; \(message.address) is not kept", from: peer)
            } else {
                let index = held.firstIndex { $0.time > time } ?? held.endIndex
                held.insert((time, message, peer), at: index)
            }
        }
    }

    private func runHeld(at now: Double) {
        while let first = held.first, first.time <= now {
            held.removeFirst()
            enqueue(first.message, from: first.from, at: first.time)
        }
        carryOutPending()
    }

    /// Queues what `message` asks for this turn; an address the patch lacks makes the model be
    /// read again (at most once a second: a node may have come) before it is refused. A timed
    /// bundle's message carries its `time` (monotonic seconds): its parameter values land on
    /// that moment's audio frame.
    private func enqueue(_ message: OSCMessage, from peer: OSCPeer, at time: Double? = nil) {
        let requests: [OSCRequest]
        do {
            requests = try space.requests(for: message)
        } catch {
            guard readSpace(ifOlderThan: 1), let again = try? space.requests(for: message) else {
                drop(error.description, from: peer)
                return
            }
            requests = again
        }
        pending += requests.map { ($0.at(time), peer) }
    }

    /// Carries out this turn's requests in order. Of several untimed values for one parameter
    /// (a fader swept faster than the turns come) only the last is set: the daemon sees the
    /// surface's latest position, not a queue of old ones.
    private func carryOutPending() {
        guard !pending.isEmpty else { return }
        var latest = Set<String>()
        var kept: [(request: OSCRequest, peer: OSCPeer)] = []
        for (request, peer) in pending.reversed() {
            if case .setParameter(let assignment) = request, assignment.at == nil,
               !latest.insert(assignment.node + "\u{0}" + assignment.parameter).inserted {
                continue
            }
            kept.append((request, peer))
        }
        pending.removeAll(keepingCapacity: true)
        for (request, peer) in kept.reversed() { carryOut(request, from: peer) }
    }

    /// Carries out one request; a refusal goes back to its sender.
    private func carryOut(_ request: OSCRequest, from peer: OSCPeer) {
        do throws(OSCSurfaceError) {
            if try carryOutMIDI(request) { return }
        } catch {
            drop(error.description, from: peer)
            return
        }
        do {
            try ask(request, from: peer)
        } catch {
            if case .rejected = error {} else { client = nil }  // a broken connection: a new one next time
            drop(error.description, from: peer)
        }
    }

    /// Plays or sends MIDI when `request` asks that.
    /// - Returns: whether it was a MIDI request.
    private func carryOutMIDI(_ request: OSCRequest) throws(OSCSurfaceError) -> Bool {
        switch request {
        case .playMIDI(let messages):
            guard let midi else { throw OSCSurfaceError("no MIDI by OSC here: \(midiUnavailable)", fix: "load snd-seq and restart the daemon") }
            try midi.play(messages)
        case .sendMIDI(let messages, let port):
            guard let midi else { throw OSCSurfaceError("no MIDI by OSC here: \(midiUnavailable)", fix: "load snd-seq and restart the daemon") }
            try midi.send(messages, to: port)
        default:
            return false
        }
        return true
    }

    /// Asks the daemon for what `request` asks, over the control connection.
    private func ask(_ request: OSCRequest, from peer: OSCPeer) throws(ControlClientError) {
        switch request {
        case .setParameter(let assignment):
            surfaces.noteOwnMoves(space.feedback(for: .parameterChanged(node: assignment.node, parameter: assignment.parameter,
                                                                         value: assignment.value)), by: peer, at: Self.now())
            _ = try connection().setParameter(assignment.parameter, of: assignment.node, to: assignment.value, at: assignment.at)
        case .switchScene(let name):
            surfaces.noteOwnMoves([OSCMessage("/scene", [.string(name)])], by: peer, at: Self.now())
            _ = try connection().switchScene(name)
        case .fireTrigger(let name):
            _ = try connection().fireTrigger(name)
        case .transport(let transport):
            _ = try connection().transport(transport)
        case .setWidget(let name, let value):
            _ = try connection().setWidget(name, to: value)
        case .pressWidget(let name):
            _ = try connection().pressWidget(name)
        case .releaseWidget(let name):
            _ = try connection().releaseWidget(name)
        case .connect(let link):
            try connection().connect(link.source, to: link.destination)
        case .disconnect(let link):
            try connection().disconnect(link.source, from: link.destination)
        case .register(let port):
            surfaces.register(peer, port: port.map { UInt16($0) }, at: Self.now())
        case .unregister:
            surfaces.unregister(peer)
        case .playMIDI, .sendMIDI:
            break  // carryOutMIDI's
        case .dump:
            let client = try connection()
            let nodes = try client.nodes(), scenes = try client.scenes()
            space = OSCAddressSpace(nodes: nodes, scenes: scenes, triggers: try client.triggers(), widgets: try client.widgets())
            spaceRead = Self.now()
            let destination = surfaces.destination(of: peer)
            for message in space.dump(nodes: nodes, scenes: scenes) { send(message, to: destination) }
        }
    }

    /// The control connection, opened (again) when needed.
    private func connection() throws(ControlClientError) -> ControlClient {
        if let client { return client }
        let opened = try ControlClient(path: socketPath, timeout: 5)
        client = opened
        return opened
    }

    /// Reads the nodes, scenes and triggers again when the model is older than `seconds`.
    /// - Returns: whether it was read.
    private func readSpace(ifOlderThan seconds: Double) -> Bool {
        let now = Self.now()
        guard now - spaceRead >= seconds else { return false }
        spaceRead = now
        do {
            let client = try connection()
            space = OSCAddressSpace(nodes: try client.nodes(), scenes: try client.scenes(), triggers: try client.triggers(),
                                    widgets: try client.widgets())
            return true
        } catch {
            client = nil  // the daemon went away or answered nonsense: open a new connection next time
            return false
        }
    }

    private func send(_ messages: [(OSCMessage, OSCPeer)]) {
        for (message, peer) in messages { send(message, to: peer) }
    }

    /// Sends one message; a TCP surface that reads nothing (a mebibyte waits) is closed and
    /// no longer a surface.
    private func send(_ message: OSCMessage, to peer: OSCPeer) {
        if let closed = transports.send(OSCPacket.message(message).encoded(), to: peer) { surfaces.unregister(closed) }
    }

    /// Counts what was dropped and tells the sender why (`/error`), unless `answering` is false.
    private func drop(_ reason: String, from peer: OSCPeer, answering: Bool = true) {
        dropped += 1
        if answering { send(OSCMessage("/error", [.string(reason)]), to: peer) }
        lastDropReason = "\(peer): \(reason)"
    }

    private var lastDropReason = ""

    /// A log line for what was dropped, at most every 10 s.
    private func reportDrops(at now: Double) {
        guard dropped > 0, now - lastDropReport >= 10 else { return }
        lastDropReport = now
        log("warning: OSC: dropped \(dropped) message\(dropped == 1 ? "" : "s") (last: \(lastDropReason))")
        dropped = 0
    }

    /// The monotonic clock, in seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// When an OSC time tag (NTP time) comes, on the monotonic clock.
    static func monotonic(of timeTag: OSCTimeTag, now: Double) -> Double {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallNow = Double(wall.tv_sec) + Double(wall.tv_nsec) / 1e9
        return now + Double(timeTag.unixNanoseconds) / 1e9 - wallNow
    }
}
