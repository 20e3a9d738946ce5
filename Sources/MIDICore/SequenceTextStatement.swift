/// A position as written: an absolute tick, or bar:beat (with an optional decimal
/// fraction of a beat) plus ticks. Resolved once every time signature is known.
enum SequenceTextPosition: Hashable, Sendable {
    case tick(Tick)
    /// `fraction / scale` of a beat is added, `scale` being a power of ten (1 when none).
    case barBeat(bar: Int, beat: Int, fraction: Int, scale: Int, tick: Int)
}

/// A note length as written.
enum SequenceTextLength: Hashable, Sendable {
    case ticks(Tick)
    /// A fraction of a whole note (dots already folded in: `1/4.` is 3/8).
    case wholeNotes(numerator: Int, denominator: Int)
    /// Beats of the time signature at the note's start, `units + fraction / scale`.
    case beats(units: Int, fraction: Int, scale: Int)

    var isTicks: Bool {
        if case .ticks = self { return true }
        return false
    }
}

/// How a note ends: Note Off with a release velocity, or Note On with velocity 0.
enum SequenceTextRelease: Hashable, Comparable, Sendable {
    case noteOff(velocity: UInt8)
    case noteOnZero
}

/// Values a note line gets when it does not give them (changed by `default`).
struct SequenceTextDefaults: Hashable, Sendable {
    var velocity: UInt8 = 100
    var release: SequenceTextRelease = .noteOff(velocity: 64)
    var length: SequenceTextLength?
}

/// One parsed event line (or an event a `track` line implies), not yet placed in time.
struct SequenceTextStatement: Sendable {
    enum Event: Sendable {
        /// A note or chord: one Note On per note at the position, the release `length` later.
        case notes([UInt8], channel: UInt8, length: SequenceTextLength, velocity: UInt8, release: SequenceTextRelease)
        case single(TrackEvent.Kind)
        /// `end`: the track's End of Track tick.
        case end
    }

    /// nil: the start of the sequence (only meta events may leave the position out).
    var position: SequenceTextPosition?
    var event: Event
    /// Where the statement is written, for errors.
    var line: Int
    var column: Int
    /// Where its position is written, for errors.
    var positionColumn: Int
}

/// A track as written: its statements in file order.
struct SequenceTextTrackDraft: Sendable {
    var statements: [SequenceTextStatement] = []
    /// Line of the `track` statement (0 for the top-level conductor section).
    var line: Int
}
