import Foundation
import RtMidiBackend
import Synchronization

/// The bridge's two libjack clients: its MIDI ports' and the port-less connector.
///
/// - Thread: any (both serialise their calls).
struct JackClients: Sendable {
    var client: JackMIDIClient
    var connector: JackPortConnector

    /// Tells the clients of one server connection from those of another.
    var identity: ObjectIdentifier { ObjectIdentifier(client) }
}

/// The JACK server, watched on a thread of its own ("midihub-jack-watch") every `interval`
/// seconds: while the daemon has no server, it looks for one and opens the bridge's clients
/// when one answers; while it has one, it reads the server's MIDI port list (a round trip to
/// jackd per reading) and notices the server going away. A look opens a throwaway libjack
/// client, and even without a server that takes milliseconds (3.6 ms on a desktop, far more
/// in a VM); a port reading takes as long: on the MIDI input thread, which owns the state,
/// MIDI queued up behind them once a second and the kernel's input FIFO overflowed. The
/// owner only takes what the watch found (`take`, `takePorts`), lock-free.
///
/// libjack's client opens never overlap: they all happen on this thread (or on main before
/// it starts). Clients of a server that went away are kept, never closed, for the life of
/// the process (libjack aborts the process when a client of a dead server is closed).
///
/// - Thread: control: `init`, `start` and `stop` on the main thread; `take` and `takePorts` on
///   the MIDI input thread (the state's owner); the watching on the "midihub-jack-watch" thread.
final class JackWatch: Sendable {
    /// What the watch found about the server.
    /// - Thread: any (a plain value).
    enum Report: Sendable {
        /// No usable server; `reason` is one log line that says why and what to do.
        case unavailable(reason: String)
        /// A server answered, the bridge's clients are open on it, and its ports are `ports`
        /// (the daemon's own left out).
        case opened(JackClients, ports: JackPortList)
        /// A server answered but the clients could not be opened: one log line.
        case openFailed(reason: String)
        /// The server of the clients `identity` names shut down or died.
        case gone(ObjectIdentifier)
    }

    /// A reading of the server's ports, for the clients `identity` names.
    /// - Thread: any (a plain value).
    struct Reading: Sendable {
        let identity: ObjectIdentifier
        let ports: JackPortList
    }

    /// The clients the thread watches the server through (`nil`: it looks for a server).
    private let watched = Mutex<JackClients?>(nil)
    /// Every client the watch opened: never closed (see above).
    private let kept = Mutex<[JackClients]>([])
    /// The newest report not taken yet. Reports come one at a time: a server found, then
    /// (seconds later at the soonest) that server gone.
    private let report = Mailbox<Report>()
    /// The newest port reading not taken yet (only when the list changed).
    private let reading = Mailbox<Reading>()
    /// The names of the daemon's own JACK ports, left out of each reading (`JackPorts` adds
    /// them as it opens them, under this lock, so no reading sees one it does not leave out).
    let ownPorts: ControlLock<Set<JackPortName>>
    /// Whether a port is one of the hub's JACK client's own MIDI ports (`JackMIDILane`), left
    /// out too (`leaveOut`).
    private let laneOwns = Mutex<(@Sendable (String) -> Bool)?>(nil)
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let interval: Double
    private let clientName: String

    /// - Parameters:
    ///   - interval: seconds between two looks or readings.
    ///   - clientName: the JACK client name of the bridge's clients.
    init(interval: Double, clientName: String, ownPorts: ControlLock<Set<JackPortName>>) {
        self.interval = interval
        self.clientName = clientName
        self.ownPorts = ownPorts
    }

    /// Looks for a server and, when one answers, opens the bridge's clients on it and reads
    /// its ports.
    /// - Thread: control (main at start, then the watch thread; never two at once).
    func look() -> Report {
        if case .unavailable(let reason) = JackAvailability.probe() { return .unavailable(reason: reason) }
        let clients: JackClients
        do {
            clients = JackClients(client: try JackMIDIClient(clientName: clientName),
                                  connector: try JackPortConnector(clientName: clientName))
        } catch {
            return .openFailed(reason: error.description)
        }
        kept.withLock { $0.append(clients) }
        watched.withLock { $0 = clients }
        return .opened(clients, ports: (try? readPorts(of: clients)) ?? JackPortList(sources: [], destinations: []))
    }

    /// Starts the thread; it looks or reads one interval from now.
    /// - Thread: control (main).
    func start() {
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            defer { finished.signal() }
            var last: JackPortList?
            while sleepUnlessStopped(interval) {
                guard let clients = watched.withLock({ $0 }) else {
                    last = nil
                    report.put(look())
                    continue
                }
                guard !clients.connector.serverIsGone else {
                    watched.withLock { $0 = nil }
                    report.put(.gone(clients.identity))
                    continue
                }
                guard let ports = try? readPorts(of: clients), ports != last else { continue }
                last = ports
                reading.put(Reading(identity: clients.identity, ports: ports))
            }
        }
        thread.name = "midihub-jack-watch"
        thread.start()
    }

    /// Stops the thread and waits for it (at most one look plus 0.1 s).
    /// - Thread: control (main).
    func stop() {
        guard running.load(ordering: .acquiring) else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    /// The newest report not taken yet, or `nil`.
    /// - Thread: owner (the MIDI input thread).
    func take() -> Report? {
        report.take()
    }

    /// The newest port reading not taken yet (the list changed), or `nil`.
    /// - Thread: owner (the MIDI input thread).
    func takePorts() -> Reading? {
        reading.take()
    }

    /// Leaves out of each reading the ports `owns` says are the hub's JACK client's own.
    /// - Thread: control (at start).
    func leaveOut(_ owns: @escaping @Sendable (String) -> Bool) {
        laneOwns.withLock { $0 = owns }
    }

    /// The server's MIDI ports but the daemon's own.
    private func readPorts(of clients: JackClients) throws(JackMIDIError) -> JackPortList {
        try ownPorts.withLock { own throws(JackMIDIError) in
            let list = try clients.client.ports()
            let laneOwns = self.laneOwns.withLock { $0 } ?? { _ in false }
            return JackPortList(sources: list.sources.filter { !own.contains($0) && !laneOwns($0.fullName) },
                                destinations: list.destinations.filter { !own.contains($0) && !laneOwns($0.fullName) })
        }
    }

    /// Sleeps `seconds` in steps of at most 0.1 s.
    /// - Returns: false once `stop` was called.
    private func sleepUnlessStopped(_ seconds: Double) -> Bool {
        var left = seconds
        while left > 0 {
            if stopping.load(ordering: .acquiring) { return false }
            Thread.sleep(forTimeInterval: min(left, 0.1))
            left -= 0.1
        }
        return !stopping.load(ordering: .acquiring)
    }
}
