import Foundation
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
/// Positions are pulses, 24 per quarter note from the song's start; times are seconds on
/// the caller's clock.
///
/// - Thread: the daemon's owner (a plain value).
public struct ClockFollower: Sendable {
    /// What the transport does on the master's word.
    public enum Cue: Equatable, Sendable {
        /// Play from `pulse` at `time`: the first pulse after a Start (from 0) or a Continue.
        case play(pulse: Int, at: Double)
        /// Stop at `pulse`, where the next Continue resumes: on Stop, or when the pulses
        /// stopped coming for `timeout` (`timedOut`).
        case stop(pulse: Int, timedOut: Bool)
        /// Move to `pulse` while stopped (Song Position).
        case locate(pulse: Int)
    }

    /// How long without a pulse before a running master counts as stopped (Ardour's 0.25 s).
    public static let timeout = 0.25
    /// The loop's bandwidth (Hz): about a second to lock, and arrival jitter of a millisecond
    /// moves the tempo by less than a tenth of a BPM.
    static let bandwidth = 1.0
    /// The most the loop corrects by (its ω): above it, a slow clock's loop would overshoot
    /// and diverge.
    static let maxOmega = 0.5
    /// Pulse periods a clock may have: 10 to 1,000 quarter notes per minute (a pulse at least
    /// every `timeout`).
    static let periods = (60.0 / 24 / 1000)...timeout

    /// Whether the master plays: from the first pulse after Start or Continue until Stop.
    public private(set) var running = false
    /// Start or Continue came; the next pulse plays.
    private var armed = false
    /// The song pulse the next Timing Clock marks.
    private var nextPulse = 0
    /// The last pulse's arrival.
    private var lastPulseTime: Double?
    /// The loop's state: the predicted time of the next pulse and the period (seconds).
    private var predicted = 0.0
    private var period: Double?
    /// The mean square of the arrival errors (seconds²), a moving average.
    private var errorSquare = 0.0
    /// The port the clock is taken from (see `receive(_:from:at:)`) and when it last sent.
    private var source: (port: Int, lastHeard: Double)?

    public init() {}

    /// The master's tempo (quarter notes per minute), once two pulses have come.
    public var beatsPerMinute: Double? { period.map { 60 / (24 * $0) } }

    /// How far the pulses arrive from where the loop predicts them, RMS (seconds).
    public var jitter: Double { errorSquare.squareRoot() }

    /// Where the master is at `time` in pulses (fractional), while it runs and its tempo is known.
    public func masterPulse(at time: Double) -> Double? {
        guard running, let period else { return nil }
        return Double(nextPulse) + (time - predicted) / period
    }

    /// Takes one message that came from the master's port `port` (any key stable per port)
    /// at `time`. A master behind a client with several ports — Midi Through, a device that
    /// sends its clock out of every port — sends each message once per port: the follower
    /// takes them from one port, the first that sends, and from another only once that one
    /// has been silent for `timeout`.
    /// - Returns: what the transport does now, if anything.
    public mutating func receive(_ message: MIDIMessage, from port: Int, at time: Double) -> Cue? {
        if let source, source.port != port, time - source.lastHeard <= Self.timeout { return nil }
        source = (port, time)
        return receive(message, at: time)
    }

    /// Takes one message that came from the master at `time` (a master with one port).
    /// - Returns: what the transport does now, if anything.
    public mutating func receive(_ message: MIDIMessage, at time: Double) -> Cue? {
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
    public mutating func check(at time: Double) -> Cue? {
        guard let last = lastPulseTime, time - last > Self.timeout else { return nil }
        lastPulseTime = nil
        period = nil
        guard running else { return nil }
        running = false
        return .stop(pulse: nextPulse, timedOut: true)
    }

    /// One Timing Clock at `time`: the loop takes it; the first after Start or Continue plays.
    private mutating func pulse(at time: Double) -> Cue? {
        track(time)
        defer { nextPulse += 1 }
        guard armed else { return nil }
        (armed, running) = (false, true)
        return .play(pulse: nextPulse, at: time)
    }

    /// The delay-locked loop: the first two pulses give the period, each later one corrects
    /// the predicted time (by `b` of its error) and the period (by `c`), by a bounded gain.
    /// Pulses that were held up and arrive together (the events of one `read` share its
    /// time) are counted on the prediction, not measured: a burst is a stall of the reader,
    /// not a tempo. Each error counts up to half a period, so the late pulse that starts a
    /// burst, or a lost one, moves the loop a little, not by the whole gap. A gap longer
    /// than `timeout` starts it again.
    private mutating func track(_ time: Double) {
        guard let last = lastPulseTime, time - last <= Self.timeout else {
            (period, lastPulseTime) = (nil, time)
            return
        }
        guard let current = period else {
            lastPulseTime = time
            guard time > last else { return }  // no interval to measure yet
            errorSquare = 0
            let interval = min(max(time - last, Self.periods.lowerBound), Self.periods.upperBound)
            period = interval
            predicted = time + interval
            return
        }
        guard time - last >= current * Self.burstFraction else {
            predicted += current  // held up with the previous pulse: on time as far as we know
            return
        }
        lastPulseTime = time
        let error = min(max(time - predicted, -current / 2), current / 2)
        let omega = min(2 * Double.pi * Self.bandwidth * current, Self.maxOmega)
        predicted += 2.squareRoot() * omega * error + current
        period = min(max(current + omega * omega * error, Self.periods.lowerBound), Self.periods.upperBound)
        errorSquare += 0.05 * (error * error - errorSquare)
    }

    /// A pulse closer than this fraction of the period to the previous one arrived in a burst.
    static let burstFraction = 0.25
}
