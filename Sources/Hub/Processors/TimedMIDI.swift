import MIDICore
import RenderCore

/// A MIDI message with the time it takes effect on the hub's clock
/// (the same clock as live arrival timestamps and the ``TempoClock``).
///
/// - Thread: any (a plain value).
public struct TimedMIDI: Hashable, Sendable {
    public var time: HostTime
    public var message: MIDIMessage

    public init(time: HostTime, message: MIDIMessage) {
        self.time = time
        self.message = message
    }
}

/// Maps host time to beats at a constant tempo from an origin (the transport position at beat 0).
/// A tempo change keeps the beat position continuous (see ``changingTempo(to:at:)``).
///
/// - Thread: any (a plain value).
public struct TempoClock: Hashable, Sendable {
    public var beatsPerMinute: Double
    /// The time of beat 0.
    public var origin: HostTime

    public init(beatsPerMinute: Double, origin: HostTime = .zero) {
        self.beatsPerMinute = beatsPerMinute
        self.origin = origin
    }

    /// The beats of a song's timeline `host` from `time` (where the song is at `host.beat`),
    /// which generating processors follow while it plays; `nil` when the timeline does not play.
    public init?(following host: HostSync, at time: HostTime) {
        guard host.transport == .playing else { return nil }
        self.init(beatsPerMinute: host.tempo, origin: time - HostDuration(seconds: host.beat * 60 / host.tempo))
    }

    public var secondsPerBeat: Double { 60 / beatsPerMinute }

    /// The beat (fractional) at `time`.
    public func beats(at time: HostTime) -> Double { (time - origin).seconds / secondsPerBeat }

    /// The time of `beat`, to the nearest nanosecond.
    public func time(atBeat beat: Double) -> HostTime { origin + HostDuration(seconds: beat * secondsPerBeat) }

    /// The same beat position at `time`, continuing at `beatsPerMinute`.
    public func changingTempo(to beatsPerMinute: Double, at time: HostTime) -> TempoClock {
        let beat = beats(at: time)
        return TempoClock(beatsPerMinute: beatsPerMinute, origin: time - HostDuration(seconds: beat * 60 / beatsPerMinute))
    }
}
