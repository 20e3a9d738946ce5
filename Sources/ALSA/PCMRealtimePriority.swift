import Glibc

/// Realtime scheduling for the thread that writes PCM, so that other work on the
/// machine cannot starve it into underruns (the hub's MIDI input thread asks for it too,
/// a little lower, so its kernel FIFO cannot overflow while other threads run).
public enum PCMRealtimePriority: Equatable, Sendable {
    /// The thread now runs `SCHED_FIFO` at this priority.
    case granted(priority: Int32)
    /// The thread keeps its normal priority; show `warning` to the user once.
    case denied(warning: String)

    /// The `SCHED_FIFO` priority asked for by default: above most system threads,
    /// below the kernel's and JACK's (which uses 70 and up for its clients' peers).
    public static let defaultPriority: Int32 = 60

    /// Switches the calling thread to `SCHED_FIFO` at `priority` (clamped to what
    /// the system and this user's `RLIMIT_RTPRIO` allow).
    /// - Returns: ``granted(priority:)``, or ``denied(warning:)`` with a one-line
    ///   warning that names the fix.
    /// - Thread: the thread to promote, typically the render thread before its first write
    public static func requestForCurrentThread(priority: Int32 = defaultPriority) -> PCMRealtimePriority {
        let systemMaximum = sched_get_priority_max(SCHED_FIFO)
        let systemMinimum = sched_get_priority_min(SCHED_FIFO)
        var chosen = min(max(priority, systemMinimum), systemMaximum)
        var result = setFIFO(chosen)
        // An unprivileged user may be allowed a lower priority than the one asked for.
        if result == EPERM, let limit = rtprioLimit(), limit >= systemMinimum, limit < chosen {
            chosen = limit
            result = setFIFO(chosen)
        }
        switch result {
        case 0:
            return .granted(priority: chosen)
        case EPERM:
            return .denied(
                warning: "midihub: realtime priority not permitted, running with normal priority "
                    + "(fix: add yourself to the audio group with rtprio in /etc/security/limits.d)")
        default:
            return .denied(
                warning: "midihub: realtime priority failed (\(String(cString: strerror(result)))), "
                    + "running with normal priority")
        }
    }

    /// Returns the calling thread to normal scheduling (`SCHED_OTHER`): for a render thread
    /// that cannot keep up, whose realtime priority would starve the rest of the system.
    /// - Returns: false when the system refused (the thread keeps its priority).
    /// - Thread: the thread to demote (the render thread)
    @discardableResult
    public static func dropForCurrentThread() -> Bool {
        var parameters = sched_param()
        parameters.sched_priority = 0
        return pthread_setschedparam(pthread_self(), SCHED_OTHER, &parameters) == 0
    }

    private static func setFIFO(_ priority: Int32) -> Int32 {
        var parameters = sched_param()
        parameters.sched_priority = priority
        return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameters)
    }

    /// The soft `RLIMIT_RTPRIO` of this process (unlimited reads as `Int32.max`).
    private static func rtprioLimit() -> Int32? {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0 else { return nil }
        return Int32(clamping: limit.rlim_cur)
    }
}
