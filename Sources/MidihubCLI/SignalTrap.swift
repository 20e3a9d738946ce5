import Glibc
import Synchronization

/// The last signal caught by `SignalTrap`, 0 for none (a global so that the C
/// handler can reach it without capturing anything).
private let caughtSignal = Atomic<Int32>(0)

/// Turns SIGINT and SIGTERM into a flag that long-running loops check.
///
/// The handlers are installed without `SA_RESTART`, so a `poll` in progress
/// returns at once and the loop sees the flag without waiting for its timeout.
///
/// - Thread: install on the main thread before starting a loop; `caught` from any.
enum SignalTrap {
    static func install(_ signals: [Int32] = [SIGINT, SIGTERM]) {
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { caughtSignal.store($0, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            sigaction(signal, &action, nil)
        }
    }

    /// Whether `signal` is the one that arrived; it is cleared then (SIGHUP asks for a reload, not an end).
    static func take(_ signal: Int32) -> Bool {
        caughtSignal.compareExchange(expected: signal, desired: 0, ordering: .relaxed).exchanged
    }

    /// The signal that arrived since `install`, or `nil`.
    static var caught: Int32? {
        let signal = caughtSignal.load(ordering: .relaxed)
        return signal == 0 ? nil : signal
    }

    /// The name of a signal the trap handles (`SIGTERM`), or its number.
    static func name(of signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
