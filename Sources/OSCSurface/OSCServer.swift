import Control
import Dispatch
import Foundation
import Glibc
import NetworkMIDI
import OSC
import RTPMIDI
import Synchronization

/// The daemon's OSC server (`serve --osc`): OSC 1.0 over UDP and TCP (size-prefixed or
/// SLIP-framed, as each connection starts) on one port number, as a client of the daemon's
/// own control socket — each message becomes the control request it names
/// (`OSCAddressSpace`), and the changes the daemon publishes go back to every registered
/// surface (`OSCSurfaces`). Its two threads never touch the hub's state, let alone the MIDI
/// thread: what OSC asks goes the way any control client's request goes.
///
/// A packet that cannot be read (truncated, a wrong type tag, an absurd size, bundles nested
/// too deep) or that asks for nothing the patch has is dropped and counted, the sender gets
/// one `/error` message with the reason, and the log a line at most every 10 s. A bundle's
/// messages run at its time tag (immediately when it is due or past).
///
/// - Thread: control: `start` and `stop` on main; its own threads `midihub-osc` (datagrams,
///   requests, feedback) and `midihub-osc-events` (the daemon's events).
public final class OSCServer: @unchecked Sendable {
    private let address: ListenAddress
    private let socketPath: ControlSocketPath
    private let allowList: PeerAllowList
    private let log: @Sendable (String) -> Void
    private let stopping = Atomic<Bool>(false)
    private let wakeup: WakePipe
    /// Events the events thread handed over, for the server's thread.
    private let events = Mutex<[ControlEvent]>([])
    private var threads: [Thread] = []
    /// Signalled by each thread as it ends.
    private let ended = DispatchSemaphore(value: 0)

    /// - Parameter log: where lines for the daemon's log go (warnings start with `warning: `).
    /// - Returns: nil when the system has no file descriptors left.
    /// - Parameter allowList: who may send (others' packets are dropped unanswered).
    public init?(address: ListenAddress, socket: ControlSocketPath, allowList: PeerAllowList = .everyone,
                 log: @escaping @Sendable (String) -> Void) {
        guard let wakeup = WakePipe() else { return nil }
        self.wakeup = wakeup
        self.address = address
        socketPath = socket
        self.allowList = allowList
        self.log = log
    }

    /// Binds the port and starts the threads.
    /// - Returns: where it listens.
    /// - Throws: `OSCSurfaceError` when the address cannot be bound.
    public func start() throws(OSCSurfaceError) -> ListenAddress {
        let transports: OSCTransports
        do {
            transports = try OSCTransports(host: address.host, port: address.port, allowList: allowList)
        } catch {
            throw OSCSurfaceError("cannot listen for OSC on \(address): \(error)", fix: "choose another port with --osc, or stop what uses it")
        }
        let bound = ListenAddress(host: address.host, port: transports.port)
        let session = OSCSession(transports: transports, socket: socketPath, log: log)
        let receiving = Thread { [self] in
            defer { ended.signal() }
            session.run(until: stopping, wakeup: wakeup, takeEvents: { events.withLock { taken in
                defer { taken.removeAll() }
                return taken
            } })
        }
        receiving.name = "midihub-osc"
        let listening = Thread { [self] in
            defer { ended.signal() }
            listenForEvents()
        }
        listening.name = "midihub-osc-events"
        threads = [receiving, listening]
        for thread in threads { thread.start() }
        return bound
    }

    /// Stops both threads (within a fifth of a second).
    public func stop() {
        stopping.store(true, ordering: .releasing)
        wakeup.signal()
        for _ in threads { ended.wait() }
        threads = []
    }

    /// The events thread: subscribes to the changes surfaces are shown and hands each to the
    /// server's thread; connects again when the daemon's socket closes.
    private func listenForEvents() {
        while !stopping.load(ordering: .acquiring) {
            do {
                let client = try ControlClient(path: socketPath, timeout: 5)
                _ = try client.subscribe(SubscriptionFilter(events: [.parameterChanged, .sceneChanged, .triggerFired, .transportChanged]))
                while !stopping.load(ordering: .acquiring) {
                    let event: ControlEvent?
                    do {
                        event = try client.nextEvent(timeout: 0.2)
                    } catch .timedOut {
                        continue  // a quiet fifth of a second: look at the stop flag
                    }
                    guard let event else { break }  // the daemon closed the connection
                    events.withLock { $0.append(event) }
                    wakeup.signal()
                }
            } catch {
                for _ in 0..<5 where !stopping.load(ordering: .acquiring) { usleep(100_000) }
            }
        }
    }
}
