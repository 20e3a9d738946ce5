import Dispatch
import Hub
import Synchronization

/// Writes the daemon's state from a queue of its own, so the disk (a state save syncs the
/// file and its folder) never holds up MIDI or the control side. `submit` keeps only the
/// newest state; the writer saves it `coalescing` later, so a fader swept over the socket
/// (200 parameter sets a second) costs ten writes of the latest state a second, not one a
/// set. `flush` waits until the newest is on disk (the daemon's stop).
///
/// - Thread: any: `submit` from any thread (lock-free: the state goes into a `Mailbox`);
///   writes on the writer's queue; `flush` on the thread that stops the daemon.
final class StateWriter: Sendable {
    let store: StateStore
    private let log: DaemonLog
    /// What the running plugins keep of their own, read into the state as it is written.
    private let plugins: PluginStateCapture?
    /// The newest state not yet taken by the writer.
    private let pending = Mailbox<HubState>()
    /// Whether a write is queued that will take `pending`.
    private let queued = Atomic<Bool>(false)
    private let queue = DispatchQueue(label: "midihub-state-writer")
    /// How long a submitted state waits for newer ones before it is written.
    static let coalescing = DispatchTimeInterval.milliseconds(100)

    /// - Thread: control (main, while the daemon starts).
    init(store: StateStore, log: DaemonLog, plugins: PluginStateCapture? = nil) {
        self.store = store
        self.log = log
        self.plugins = plugins
    }

    /// Hands `state` to the writer (replacing a state it has not written yet) and returns at once.
    func submit(_ state: HubState) {
        pending.put(state)
        if !queued.exchange(true, ordering: .acquiringAndReleasing) {
            queue.asyncAfter(deadline: .now() + Self.coalescing) { self.writePending() }
        }
    }

    /// Returns once every submitted state is written (the newest one last).
    /// - Thread: control (the thread that stops the daemon).
    func flush() {
        queue.sync { writePending() }
    }

    /// Writes the pending state, if any; a failure is logged, and the next submit tries again.
    private func writePending() {
        queued.store(false, ordering: .releasing)
        guard let state = pending.take() else { return }
        do {
            try store.save(plugins?.apply(to: state) ?? state)
        } catch {
            log.warning("cannot save the state: \(error)")
        }
    }
}
