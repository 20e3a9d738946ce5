import MIDICore

/// Watches a realtime render thread for blocks that take longer to render than they take to
/// play. Such a thread never waits in the device write (every write finds the device run
/// dry and refills it at once), so at `SCHED_FIFO` it would hold its CPU for the kernel's
/// whole realtime budget and starve everything else there: the kernel's timers and workers
/// (the device's clock, a USB unplug), the MIDI input thread. After `limit` overruns in a
/// row the watchdog fires once, and the render thread drops to normal scheduling.
///
/// - Thread: render (a plain value the render loop owns).
struct OverrunWatchdog {
    /// Overrunning blocks in a row that fire the watchdog.
    static let defaultLimit = 16

    private let limit: Int
    private let blockLength: HostDuration
    private var consecutiveOverruns = 0
    /// False until the thread runs at realtime priority, and again once the watchdog fired.
    private(set) var isArmed = false

    /// - Parameters:
    ///   - blockFrames: frames per block; `sampleRate`: the device's rate.
    init(blockFrames: Int, sampleRate: Int, limit: Int = OverrunWatchdog.defaultLimit) {
        self.limit = limit
        blockLength = TimeBase(sampleRate: sampleRate).duration(ofFrames: Int64(blockFrames))
    }

    /// Starts watching (the render thread got realtime priority).
    mutating func arm() {
        isArmed = true
        consecutiveOverruns = 0
    }

    /// Records one block that took `rendering` to render.
    /// - Returns: true exactly once: when the limit of overruns in a row is reached.
    mutating func record(rendering: HostDuration) -> Bool {
        guard isArmed else { return false }
        consecutiveOverruns = rendering > blockLength ? consecutiveOverruns + 1 : 0
        guard consecutiveOverruns >= limit else { return false }
        isArmed = false
        return true
    }
}
