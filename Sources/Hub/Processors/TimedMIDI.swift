import MIDICore

/// A MIDI message with the time it takes effect, in seconds on the hub's clock
/// (the same clock as live arrival timestamps and the ``TempoClock``).
///
/// - Thread: any (a plain value).
public struct TimedMIDI: Hashable, Sendable {
    public var time: Double
    public var message: MIDIMessage

    public init(time: Double, message: MIDIMessage) {
        self.time = time
        self.message = message
    }
}

/// Maps seconds to beats at a constant tempo from an origin (the transport position at beat 0).
/// A tempo change keeps the beat position continuous (see ``changingTempo(to:atSeconds:)``).
///
/// - Thread: any (a plain value).
public struct TempoClock: Hashable, Sendable {
    public var beatsPerMinute: Double
    /// The time (seconds) of beat 0.
    public var originSeconds: Double

    public init(beatsPerMinute: Double, originSeconds: Double = 0) {
        self.beatsPerMinute = beatsPerMinute
        self.originSeconds = originSeconds
    }

    public var secondsPerBeat: Double { 60 / beatsPerMinute }

    public func beats(atSeconds seconds: Double) -> Double { (seconds - originSeconds) / secondsPerBeat }

    public func seconds(atBeat beat: Double) -> Double { originSeconds + beat * secondsPerBeat }

    /// The same beat position at `seconds`, continuing at `beatsPerMinute`.
    public func changingTempo(to beatsPerMinute: Double, atSeconds seconds: Double) -> TempoClock {
        let beat = beats(atSeconds: seconds)
        let changed = TempoClock(beatsPerMinute: beatsPerMinute, originSeconds: 0)
        return TempoClock(beatsPerMinute: beatsPerMinute, originSeconds: seconds - changed.seconds(atBeat: beat))
    }
}
