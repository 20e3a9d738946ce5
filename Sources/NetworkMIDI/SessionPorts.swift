import ALSA
import Foundation
import MIDICore
import RTPMIDI
import Synchronization

/// The sequencer side of a network host: the ALSA client ("midihub network" unless named
/// otherwise) with one port per session that is up, named after the peer. What the peer
/// sends leaves that port for its subscribers; what is sent to the port goes to the peer.
/// So a session is one more port for `aconnect`, the hub's rules, recording and learn.
///
/// - Thread: its own, "midihub-net", which owns the client and polls it; `post` and `stop`
///   from any other.
final class SessionPorts: @unchecked Sendable {
    enum Command: Sendable {
        /// A port for a session that is up, named after its peer.
        case open(SessionSummary)
        case close(SessionID)
        case deliver(SessionID, [MIDIMessage])
    }

    /// The client's number, for the ports' addresses (`CLIENT:PORT`).
    let clientID: UInt8
    private let inbox = Mutex<(commands: [Command], stopping: Bool)>(([], false))
    private let wake: WakePipe
    private let finished = DispatchSemaphore(value: 0)

    /// Opens the client and starts its thread. On the client's thread, `onOpened` hears of
    /// each session's port once it exists, and `onMIDI` gets what was sent to a session's port.
    /// - Throws: `NetworkError.ports` naming what failed (no sequencer: its fix).
    init(clientName: String, onOpened: @escaping @Sendable (SessionSummary, SeqAddress) -> Void,
         onMIDI: @escaping @Sendable (SessionID, [MIDIMessage]) -> Void) throws(NetworkError) {
        let client: SeqClient
        do {
            client = try SeqClient(name: clientName)
        } catch {
            throw .ports(error.description)
        }
        guard let wake = WakePipe() else { throw .ports("no file descriptors left") }
        self.wake = wake
        clientID = client.clientID
        let owned = UncheckedBox(client)
        Thread.detachNewThread { [self] in
            Thread.current.name = "midihub-net"
            run(owned.value, onOpened: onOpened, onMIDI: onMIDI)
            finished.signal()
        }
    }

    /// Asks the client's thread to do something; it wakes at once.
    func post(_ command: Command) {
        inbox.withLock { $0.commands.append(command) }
        wake.signal()
    }

    /// Carries out what was posted, closes the ports and the client, and waits for the thread.
    func stop() {
        inbox.withLock { $0.stopping = true }
        wake.signal()
        finished.wait()
    }

    private func run(_ client: SeqClient, onOpened: @Sendable (SessionSummary, SeqAddress) -> Void,
                     onMIDI: @Sendable (SessionID, [MIDIMessage]) -> Void) {
        var ports: [SessionID: SeqPort] = [:]
        var sessions: [UInt8: SessionID] = [:]
        while true {
            _ = try? client.waitForInput(milliseconds: -1, alsoWatching: [wake.descriptor])
            wake.drain()
            let (commands, stopping) = inbox.withLock { inbox in
                defer { inbox.commands.removeAll() }
                return (inbox.commands, inbox.stopping)
            }
            for command in commands {
                switch command {
                case .open(let session):
                    guard let port = try? client.createPort(name: session.name, capabilities: [.source, .destination, .duplex])
                    else { continue }
                    ports[session.id] = port
                    sessions[port.address.port] = session.id
                    onOpened(session, port.address)
                case .close(let id):
                    guard let port = ports.removeValue(forKey: id) else { continue }
                    sessions[port.address.port] = nil
                    try? client.deletePort(port)
                case .deliver(let id, let messages):
                    guard let port = ports[id] else { continue }
                    for message in messages { _ = try? client.output(message, from: port, to: nil) }
                    _ = try? client.drainOutput()
                }
            }
            if stopping { break }
            var batch: [SessionID: [MIDIMessage]] = [:]
            while let (event, port) = (try? client.receivePendingAtPort()) ?? nil {
                guard case .message(let message, _, _) = event, let id = sessions[port] else { continue }
                batch[id, default: []].append(message)
            }
            for (id, messages) in batch { onMIDI(id, messages) }
        }
        for port in ports.values { try? client.deletePort(port) }
    }
}

/// Hands a value to one other thread, which alone uses it from then on.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
