import MIDICore

/// Follows a MIDI clock master (docs/transport.md#midi-clock-in): reads its Timing Clock,
/// Start, Continue, Stop and Song Position messages with their arrival times and tells the
/// transport what to do (`Cue`), and where the master is (`masterPulse(at:)`) at the tempo
/// it plays (`beatsPerMinute`).
///
/// The tempo comes from a delay-locked loop (F. Adriaensen, "Using a DLL to filter time",
/// 2005), not from an average: a second-order loop that predicts the next pulse's time and
/// corrects its period and phase by each pulse's error, so it locks to the master's phase
/// and smooths the jitter of the arrival times without lagging behind a steady clock.
///
/// The master's word, as Ardour reads it: Start plays from the top at the next pulse;
/// Continue plays from the last Song Position (or where the master stopped) at the next
/// pulse; Song Position moves the transport while stopped and is ignored while running;
/// Stop stops where the master stopped; no pulse for `timeout` while running stops too.
///
/// Positions are pulses, 24 per quarter note from the song's start; times are the caller's
/// clock (`HostTime`); the loop's own arithmetic (errors, gains) is in seconds.
///
/// - Thread: owner (a plain value the daemon's owner holds).
public struct ClockFollower: Sendable {
    /// What the transport does on the master's word.
    public enum Cue: Equatable, Sendable {
        /// Play from `pulse` at `time`: the first pulse after a Start (from 0) or a Continue.
        case play(pulse: Int, at: HostTime)
        /// Stop at `pulse`, where the next Continue resumes: on Stop, or when the pulses
        /// stopped coming for `timeout` (`timedOut`).
        case stop(pulse: Int, timedOut: Bool)
        /// Move to `pulse` while stopped (Song Position).
        case locate(pulse: Int)
    }

    /// How long without a pulse before a running master counts as stopped (Ardour's 0.25 s).
    public static let timeout: HostDuration = 0.25
    /// The loop's bandwidth (Hz): about a second to lock, and arrival jitter of a millisecond
    /// moves the tempo by less than a tenth of a BPM.
    static let bandwidth = 1.0
    /// The most the loop corrects by (its ω): above it, a slow clock's loop would overshoot
    /// and diverge.
    static let maxOmega = 0.5
    /// Pulse periods a clock may have: 10 to 1,000 quarter notes per minute (a pulse at least
    /// every `timeout`).
    static let periods = (60.0 / 24 / 1000)...timeout.seconds

    /// Whether the master plays: from the first pulse after Start or Continue until Stop.
    public private(set) var running = false
    /// Start or Continue came; the next pulse plays.
    private var armed = false
    /// The song pulse the next Timing Clock marks.
    private var nextPulse = 0
    /// The last pulse's arrival.
    private var lastPulseTime: HostTime?
    /// The loop's state: the predicted time of the next pulse and the period (seconds).
    private var predicted = HostTime.zero
    private var period: Double?
    /// The pulses giving the loop its first period (`seed`), while it has none.
    private var seeding: PulseLine?
    /// The last pulse's error, not yet corrected for (`track`).
    private var pendingError: Double?
    /// Pulses in a row that came in a burst (`track`).
    private var burstPulses = 0
    /// The mean square of the arrival errors (seconds²), a moving average.
    private var errorSquare = 0.0
    /// The port the clock is taken from (see `receive(_:from:at:)`) and when it last sent.
    private var source: (port: Int, lastHeard: HostTime)?

    public init() {}

    /// The master's tempo (quarter notes per minute), once two pulses have come.
    public var beatsPerMinute: Double? { period.map { 60 / (24 * $0) } }

    /// How far the pulses arrive from where the loop predicts them, RMS (seconds).
    public var jitter: Double { errorSquare.squareRoot() }

    /// Where the master is at `time` in pulses (fractional), while it runs and its tempo is known.
    public func masterPulse(at time: HostTime) -> Double? {
        guard running, let period else { return nil }
        return Double(nextPulse) + (time - predicted).seconds / period
    }

    /// Takes one message that came from the master's port `port` (any key stable per port)
    /// at `time`. A master behind a client with several ports — Midi Through, a device that
    /// sends its clock out of every port — sends each message once per port: the follower
    /// takes them from one port, the first that sends, and from another only once that one
    /// has been silent for `timeout`.
    /// - Returns: what the transport does now, if anything.
    public mutating func receive(_ message: MIDIMessage, from port: Int, at time: HostTime) -> Cue? {
        if let source, source.port != port, time - source.lastHeard <= Self.timeout { return nil }
        source = (port, time)
        return receive(message, at: time)
    }

    /// Takes one message that came from the master at `time` (a master with one port).
    /// - Returns: what the transport does now, if anything.
    public mutating func receive(_ message: MIDIMessage, at time: HostTime) -> Cue? {
        switch message {
        case .clock:
            return pulse(at: time)
        case .start:
            let wasRunning = running
            (running, armed, nextPulse) = (false, true, 0)
            return wasRunning ? .stop(pulse: 0, timedOut: false) : .locate(pulse: 0)
        case .continue:
            guard !running else { return nil }
            armed = true
            return nil
        case .stop:
            guard running || armed else { return nil }
            (running, armed) = (false, false)
            return .stop(pulse: nextPulse, timedOut: false)
        case .songPosition(let sixteenths):
            guard !running else { return nil }
            nextPulse = Int(sixteenths) * 6
            return .locate(pulse: nextPulse)
        default:
            return nil
        }
    }

    /// Notices a master that stopped sending pulses: `timeout` after the last one while running,
    /// the transport stops; a clock silent that long while stopped has no tempo any more.
    /// - Returns: the stop, once.
    public mutating func check(at time: HostTime) -> Cue? {
        guard let last = lastPulseTime, time - last > Self.timeout else { return nil }
        lastPulseTime = nil
        period = nil
        guard running else { return nil }
        running = false
        return .stop(pulse: nextPulse, timedOut: true)
    }

    /// One Timing Clock at `time`: the loop takes it; the first after Start or Continue plays.
    private mutating func pulse(at time: HostTime) -> Cue? {
        track(time)
        defer { nextPulse += 1 }
        guard armed else { return nil }
        (armed, running) = (false, true)
        return .play(pulse: nextPulse, at: time)
    }

    /// The delay-locked loop: its period comes from the line through the pulses of its first
    /// `seedSpan` (one interval can be a few microseconds or a stall long: pulses held up
    /// arrive together, and a loop started at 1,000 BPM crept toward a 125 BPM master for
    /// seconds while the transport raced or crawled); each later pulse corrects the
    /// predicted time (by `b` of its error) and the period (by `c`), by a bounded gain.
    /// A pulse's correction waits for the next pulse: pulses that were held up arrive
    /// together (the events of one `read` share its time), and the first of them is late
    /// only because the reader was. When the next one comes with it (a burst), the first
    /// one's error is dropped and both count as on time; otherwise the correction goes in
    /// before the next pulse is measured, the loop's arithmetic unchanged. A gap longer than
    /// `timeout`, a burst longer than `longestBurst` or an error of more than `lostAfter`
    /// periods starts the loop again.
    private mutating func track(_ time: HostTime) {
        guard let last = lastPulseTime, time - last <= Self.timeout, let current = period else {
            seed(time)
            return
        }
        lastPulseTime = time
        guard (time - last).seconds >= current * Self.burstFraction else {
            // Held up with the previous pulse: both on time as far as anyone can tell. More
            // than a quarter note of them in a row is a clock far faster than the loop's.
            burstPulses += 1
            pendingError = nil
            predicted += HostDuration(seconds: current)
            if burstPulses > Self.longestBurst { restart(at: time) }
            return
        }
        burstPulses = 0
        if let error = pendingError {
            guard abs(error) <= Self.lostAfter * current else { return restart(at: time) }
            let omega = min(2 * Double.pi * Self.bandwidth * current, Self.maxOmega)
            predicted += HostDuration(seconds: 2.squareRoot() * omega * error)
            period = min(max(current + omega * omega * error, Self.periods.lowerBound), Self.periods.upperBound)
            errorSquare += 0.05 * (error * error - errorSquare)
        }
        let error = (time - predicted).seconds
        pendingError = error
        predicted += HostDuration(seconds: period ?? current)
    }

    /// Starts the loop from `time`'s pulse: the pulses of the next `seedSpan` give its period.
    private mutating func restart(at time: HostTime) {
        (period, pendingError, burstPulses) = (nil, nil, 0)
        seeding = PulseLine(start: time)
        lastPulseTime = time
    }

    /// A pulse while the loop has no period: after a gap longer than `timeout` (or none
    /// before) it starts the seed, and so do pulses that came with the seed's first (the
    /// pulses a stall held up: their intervals were in the gap before it); once the seed
    /// spans `seedSpan`, the line through its pulses gives the period and the next pulse's
    /// time, and the loop runs from this pulse.
    private mutating func seed(_ time: HostTime) {
        guard let last = lastPulseTime, time - last <= Self.timeout, var line = seeding, time >= line.start,
              line.count > 1 || (time - line.start).seconds >= Self.periods.lowerBound * Self.burstFraction else {
            restart(at: time)
            return
        }
        lastPulseTime = time
        line.add(time)
        seeding = line
        guard line.span >= Self.seedSpan, line.count >= 3, let (slope, origin) = line.fit else { return }
        seeding = nil
        errorSquare = 0
        let interval = min(max(slope, Self.periods.lowerBound), Self.periods.upperBound)
        period = interval
        predicted = max(origin + HostDuration(seconds: slope * Double(line.count)), time + HostDuration(seconds: interval * Self.burstFraction))
    }

    /// A pulse closer than this fraction of the period to the previous one arrived in a burst.
    static let burstFraction = 0.125
    /// The most pulses a burst holds (a quarter note's): a stall of `timeout` at 100 BPM
    /// holds 10.
    static let longestBurst = 24
    /// How long the pulses that give the loop its first period span (at least three pulses):
    /// twelve pulses at 125 BPM, a hundred at the fastest clock, two intervals of the slowest.
    static let seedSpan = 0.25
    /// An error of more periods than this is a lost lock (the master jumped, or the loop
    /// started from a wrong period), not jitter: the loop starts again.
    static let lostAfter = 4.0
}
