import MIDICore
import RenderCore

/// A count-in before a take (docs/transport.md#overdubbing): whole bars of the song's meter
/// at the tempo where playing starts, which the metronome clicks — the timeline runs from
/// that many bars before the position, accented on the count-in's first beat — before the
/// song plays from the position.
///
/// - Thread: any (a plain value).
public struct CountIn: Equatable, Sendable {
    /// How long the count-in lasts: the song starts that long after it begins.
    public var length: HostDuration
    /// The timeline nodes read from the count-in's start (`samplePosition` and `sampleRate`
    /// left for the caller).
    public var host: HostSync

    /// Bars a count-in may have.
    public static let bars = 0...4

    /// `bars` bars before `tick` of `song`, at `tempo` (quarter notes per minute: the override
    /// or the file's there).
    public init(bars: Int, before tick: Tick, of song: Song, tempo: Double) {
        var host = song.tempoMap.hostSync(atTick: tick, tempo: tempo, transport: .playing)
        let barBeats = Double(host.timeSignatureNumerator) * 4 / Double(max(host.timeSignatureDenominator, 1))
        let countBeats = Double(bars) * barBeats
        host.beat -= countBeats
        host.barStartBeat = host.beat
        host.bar -= bars
        self.host = host
        length = HostDuration(seconds: countBeats * 60 / tempo)
    }
}
