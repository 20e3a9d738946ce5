import MIDICore
/// The straight line through a run of clock pulses, by least squares: pulse `i` (from 0) at
/// time `origin + i * period`. One pulse read late moves it by a fraction of its lateness
/// over the run, where the first and last pulses alone would move by all of it.
/// Times are kept in seconds from the first pulse's, so sums of squares stay exact.
///
/// - Thread: any (a plain value).
struct PulseLine: Sendable {
    /// The first pulse's time.
    let start: HostTime
    /// The pulses taken, and the sums of their times (from `start`) and of index·time (the
    /// sums of the indices and their squares follow from `count`).
    private(set) var count = 1
    private var sumTimes = 0.0, sumIndexTimes = 0.0

    /// A line from one pulse at `start`.
    init(start: HostTime) { self.start = start }

    /// How long the pulses taken span (seconds).
    private(set) var span = 0.0

    /// Takes the next pulse, at `time`.
    mutating func add(_ time: HostTime) {
        let t = (time - start).seconds
        sumTimes += t
        sumIndexTimes += Double(count) * t
        span = max(span, t)
        count += 1
    }

    /// The period and the time of pulse 0, once two pulses have come.
    var fit: (period: Double, origin: HostTime)? {
        guard count >= 2 else { return nil }
        let n = Double(count)
        let sumIndex = n * (n - 1) / 2, sumIndexSquares = (n - 1) * n * (2 * n - 1) / 6
        let period = (n * sumIndexTimes - sumIndex * sumTimes) / (n * sumIndexSquares - sumIndex * sumIndex)
        return (period, start + HostDuration(seconds: (sumTimes - period * sumIndex) / n))
    }
}
