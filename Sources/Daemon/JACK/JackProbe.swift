import Foundation
import RtMidiBackend
import Synchronization

/// The bridge's two libjack clients: its MIDI ports' and the port-less connector.
///
/// - Thread: any (both serialise their calls).
struct JackClients: Sendable {
    var client: JackMIDIClient
    var connector: JackPortConnector
}

/// Looks for a JACK server every `interval` seconds on a thread of its own, while the
/// daemon has none, and opens the bridge's clients when one answers. A probe opens a
/// throwaway libjack client, and even without a server that takes milliseconds (3.6 ms on
/// a desktop, far more in a VM), opening the clients more: on the MIDI input thread, which
/// owns the state, MIDI queued up behind it once a second and the kernel's input FIFO
/// overflowed.
///
/// libjack's client opens never overlap: they all happen on this thread (or on main before
/// it starts); an answer with the clients opened pauses the probing, and it resumes only when
/// the bridge asks (`resume`: the server went away).
///
/// - Thread: control: `init`, `start` and `stop` on the main thread; `take` and `resume` on the MIDI input
///   thread (the state's owner); the probing on the "midihub-jack-probe" thread.
final class JackProbe: Sendable {
    /// What a look for the server found.
    /// - Thread: any (a plain value).
    enum Answer: Sendable {
        /// No usable server; `reason` is one log line that says why and what to do.
        case unavailable(reason: String)
        /// A server answered and the bridge's clients are open on it.
        case opened(JackClients)
        /// A server answered but the clients could not be opened: one log line.
        case openFailed(reason: String)
    }

    /// Whether the thread should probe (false once it opened the clients).
    private let probing = Atomic<Bool>(true)
    /// The newest answer not taken yet (lock-free: the owner takes it).
    private let answer = Mailbox<Answer>()
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let interval: Double
    private let clientName: String

    /// - Parameters:
    ///   - interval: seconds between two probes.
    ///   - clientName: the JACK client name of the bridge's clients.
    init(interval: Double, clientName: String) {
        self.interval = interval
        self.clientName = clientName
    }

    /// Probes for a server and, when one answers, opens the bridge's clients on it.
    /// - Thread: control (main at start, then the probe thread; never two at once).
    static func look(clientName: String) -> Answer {
        if case .unavailable(let reason) = JackAvailability.probe() { return .unavailable(reason: reason) }
        do {
            return .opened(JackClients(client: try JackMIDIClient(clientName: clientName),
                                       connector: try JackPortConnector(clientName: clientName)))
        } catch {
            return .openFailed(reason: error.description)
        }
    }

    /// Starts the thread; it probes one interval from now, and only when `probing`.
    /// - Thread: control (main).
    func start(probing: Bool) {
        self.probing.store(probing, ordering: .releasing)
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            defer { finished.signal() }
            while sleepUnlessStopped(interval) {
                guard self.probing.load(ordering: .acquiring) else { continue }
                let found = Self.look(clientName: clientName)
                if case .opened = found { self.probing.store(false, ordering: .releasing) }
                answer.put(found)
            }
        }
        thread.name = "midihub-jack-probe"
        thread.start()
    }

    /// Stops the thread and waits for it (at most one probe plus 0.1 s).
    /// - Thread: control (main).
    func stop() {
        guard running.load(ordering: .acquiring) else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    /// The newest answer not taken yet, or `nil`. After an `.opened` answer the thread
    /// probes no more until `resume`.
    /// - Thread: owner (the MIDI input thread).
    func take() -> Answer? {
        answer.take()
    }

    /// Looks for a server again (it went away).
    /// - Thread: owner (the MIDI input thread).
    func resume() {
        probing.store(true, ordering: .releasing)
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
