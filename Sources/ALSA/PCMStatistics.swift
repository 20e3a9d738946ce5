import Synchronization

/// Counters the render thread bumps while writing and the control side reads
/// (for the status line). Shared by reference; outlives the device if kept.
public final class PCMStatistics: Sendable {
    private let underrunCount = Atomic<Int>(0)
    private let resumeCount = Atomic<Int>(0)
    private let stallCount = Atomic<Int>(0)

    /// - Thread: any
    public init() {}

    /// Underruns (the device ran dry: -EPIPE) recovered so far.
    /// - Thread: any
    public var underruns: Int { underrunCount.load(ordering: .relaxed) }

    /// Times the device was suspended (-ESTRPIPE, system sleep) and resumed.
    /// - Thread: any
    public var resumes: Int { resumeCount.load(ordering: .relaxed) }

    /// Stalls recovered so far: the device stood still for longer than the kernel waits
    /// for room (-EIO), and the stream was restarted.
    /// - Thread: any
    public var stalls: Int { stallCount.load(ordering: .relaxed) }

    /// - Thread: render
    func recordStall() { stallCount.add(1, ordering: .relaxed) }

    /// - Thread: render
    func recordUnderrun() { underrunCount.add(1, ordering: .relaxed) }

    /// - Thread: render
    func recordResume() { resumeCount.add(1, ordering: .relaxed) }
}
