import Glibc

/// The clock live events are stamped with and the render thread measures its blocks by:
/// `CLOCK_MONOTONIC` in nanoseconds (a vDSO read: no system call, no allocation).
///
/// - Thread: any.
public enum MonotonicClock {
    /// Nanoseconds since an arbitrary fixed point (boot).
    /// - Thread: any.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}
