import ALSA
import Control
import Dispatch
import Foundation
import MIDICore
import RTPMIDI
import Synchronization

/// The network host's one thread, "midihub-net": like aseqnet, it polls the sequencer client
/// and both UDP sockets in one wait, so MIDI crosses from a session's port to its peer (and
/// from the peer to the port) without a hand-off between threads. It feeds the session host
/// (`RTPMIDI.SessionHost`) what arrives, the clock every 10 ms and the ports' MIDI, and
/// carries out its effects: datagrams, ports opened and closed, MIDI out of a port now or at
/// its jitter-buffered time.
///
/// - Thread: control (its own thread, "midihub-net", owns every member but `perform` and `stop`, which any other thread calls).
final class SessionLoop: @unchecked Sendable {
    /// A job for the loop's thread, from `perform`.
    typealias Job = @Sendable (SessionLoop) -> Void

    /// The control port (the data port is one above).
    let port: Int

    private var host: SessionHost
    private let events: @Sendable (NetworkHost.Event) -> Void
    private let client: SeqClient
    private let control: UDPSocket
    private let data: UDPSocket
    private let wake: WakePipe
    private let inbox = Mutex<(jobs: [Job], stopping: Bool)>(([], false))
    private let finished = DispatchSemaphore(value: 0)
    /// Each session's port, and the other way round by port number.
    private var ports: [SessionID: SeqPort] = [:]
    private var sessionsByPort: [UInt8: SessionID] = [:]
    /// MIDI held by the jitter buffer until its time (µs), soonest first.
    private var later: [(at: UInt64, session: SessionID, messages: [MIDIMessage])] = []
    /// When the session host is next told the time.
    private var nextTick: UInt64 = 0
    /// How often the session host is told the time: its invitations, clock syncs, feedback and timeouts.
    private static let tickInterval: UInt64 = 10_000

    /// Opens the sequencer client, binds the control port on `address` and the data port above
    /// it, and starts the thread.
    /// - Throws: `NetworkError` naming the ports in use or the sequencer missing.
    init(host: SessionHost, clientName: String, address: String, port: Int,
         events: @escaping @Sendable (NetworkHost.Event) -> Void) throws(NetworkError) {
        do {
            client = try SeqClient(name: clientName)
        } catch {
            throw .ports(error.description)
        }
        guard let wake = WakePipe() else { throw .ports("no file descriptors left") }
        do {
            control = try UDPSocket(address: address, port: port)
            data = try UDPSocket(address: address, port: control.port + 1)
        } catch {
            throw .bind(address: address, port: port, reason: error.description)
        }
        (self.host, self.events, self.wake) = (host, events, wake)
        self.port = control.port
        Thread.detachNewThread { [self] in
            Thread.current.name = "midihub-net"
            run()
            finished.signal()
        }
    }

    /// Runs `body` on the loop's thread and waits for what it returns.
    /// - Returns: nil once the loop has stopped.
    /// - Thread: any but the loop's.
    func perform<Value: Sendable>(_ body: @escaping @Sendable (SessionLoop) -> Value) -> Value? {
        let result = Mutex<Value?>(nil), done = DispatchSemaphore(value: 0)
        let posted = inbox.withLock { inbox in
            guard !inbox.stopping else { return false }
            inbox.jobs.append { loop in
                result.withLock { $0 = body(loop) }
                done.signal()
            }
            return true
        }
        guard posted else { return nil }
        wake.signal()
        done.wait()
        return result.withLock { $0 }
    }

    /// Ends every session (BY to each peer, note-offs for what they left sounding), closes the
    /// ports, the client and the sockets, and waits for the thread.
    /// - Thread: any but the loop's.
    func stop() {
        inbox.withLock { $0.stopping = true }
        wake.signal()
        finished.wait()
    }

    /// Every session, oldest first.
    var summaries: [SessionSummary] { host.summaries }

    /// Invites a peer (see `SessionHost.invite`).
    func invite(_ peer: PeerAddress) -> SessionID {
        let (id, effects) = host.invite(peer, now: now)
        carryOut(effects)
        return id
    }

    /// Ends one session (see `SessionHost.end`).
    func end(_ id: SessionID) { carryOut(host.end(id, now: now)) }

    /// Microseconds of the monotonic clock.
    private var now: UInt64 { DispatchTime.now().uptimeNanoseconds / 1000 }

    private func run() {
        nextTick = now + Self.tickInterval
        while true {
            let wait = min(nextTick, later.first?.at ?? .max), start = now
            let timeout = wait > start ? Int64(wait - start) : 0
            // Only what is ready is read: under emulation each read that finds nothing costs
            // as much as one that finds a packet.
            let ready = try? client.waitForInput(microseconds: timeout,
                                                 alsoWatching: [wake.descriptor, control.descriptor, data.descriptor])
            let readable = ready?.readable ?? []
            if readable.contains(wake.descriptor) { wake.drain() }
            let (jobs, stopping) = inbox.withLock { inbox in
                defer { inbox.jobs.removeAll() }
                return (inbox.jobs, inbox.stopping)
            }
            for job in jobs { job(self) }
            if stopping { break }
            // One reading of the clock for what the wait brought (under emulation each costs
            // as much as a system call).
            let now = self.now
            receiveDatagrams(from: readable, now: now)
            if ready?.sequencer ?? true { sendPortInput(now: now) }
            deliverDue(now: now)
            if now >= nextTick {
                carryOut(host.tick(now: now))
                nextTick = now + Self.tickInterval
            }
        }
        carryOut(host.endAll(now: now))
        for port in ports.values { try? client.deletePort(port) }
    }

    /// Every datagram waiting on the sockets among `readable`, to their sessions.
    private func receiveDatagrams(from readable: [Int32], now: UInt64) {
        for (socket, channel) in [(control, SessionChannel.control), (data, .data)] where readable.contains(socket.descriptor) {
            while let (bytes, peer) = socket.receive() {
                carryOut(host.receive(bytes, via: channel, from: peer, now: now))
            }
        }
    }

    /// What the sessions' ports were sent, to their peers: one packet per session. Reads
    /// all the kernel holds, so a chord goes in one packet (stopping at alsa-lib's buffer
    /// split chords over packets that the link's jitter then reordered: VM 92).
    private func sendPortInput(now: UInt64) {
        var batches: [(SessionID, [MIDIMessage])] = []
        while let (event, port) = (try? client.receivePendingAtPort()) ?? nil {
            guard case .message(let message, _, _) = event, let id = sessionsByPort[port] else { continue }
            if let index = batches.firstIndex(where: { $0.0 == id }) {
                batches[index].1.append(message)
            } else {
                batches.append((id, [message]))
            }
        }
        for (id, messages) in batches { carryOut(host.send(messages, to: id, now: now)) }
    }

    /// The jitter buffer's MIDI whose time has come, out of its ports.
    private func deliverDue(now: UInt64) {
        while let first = later.first, first.at <= now {
            later.removeFirst()
            output(first.messages, from: first.session)
        }
    }

    private func output(_ messages: [MIDIMessage], from id: SessionID) {
        guard let port = ports[id] else { return }
        for message in messages { _ = try? client.output(message, from: port, to: nil) }
        _ = try? client.drainOutput()
    }

    private func carryOut(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .send(let bytes, let address, let via):
                (via == .control ? control : data).send(bytes, to: address)
            case .sessionUp(let summary):
                guard let port = try? client.createPort(name: summary.name, capabilities: [.source, .destination, .duplex])
                else { continue }
                ports[summary.id] = port
                sessionsByPort[port.address.port] = summary.id
                events(.up(summary, port: port.address))
            case .sessionDown(let summary, let reason):
                if let port = ports.removeValue(forKey: summary.id) {
                    sessionsByPort[port.address.port] = nil
                    try? client.deletePort(port)
                }
                events(.down(summary, reason: reason))
            case .received(let messages, let id):
                output(messages, from: id)
            case .receivedLater(let messages, let id, let at):
                let index = later.firstIndex { $0.at > at } ?? later.endIndex
                later.insert((at, id, messages), at: index)
            }
        }
    }
}
