/// The times `monitor` prints: the kernel's arrival stamps, never decreasing.
///
/// The sequencer queue interpolates its time between timer interrupts, and the
/// interrupt then sets it by the timer's nominal period; when the interrupt is late
/// the stamp of the next event can fall a few microseconds behind the one before
/// it. A listing whose times go backwards reads as reordered events, so a stamp
/// earlier than the last one printed is shown as the last one.
///
/// - Thread: the monitor's main thread.
struct ArrivalClock {
    private var latest = 0.0

    /// The time to print for an event the kernel stamped `seconds`.
    mutating func time(stampedAt seconds: Double) -> Double {
        latest = max(latest, seconds)
        return latest
    }
}
