import MIDICore

/// A place in a song that a seek or a loop names: `BAR` or `BAR:BEAT` (1-based, as the
/// status shows them), `SECONDSs` (`42.5s`, time from the start at the file's tempo), or the
/// name of a marker in the file.
///
/// - Thread: any (a plain value).
public enum TransportPosition: Hashable, Sendable, CustomStringConvertible {
    case barBeat(bar: Int, beat: Int)
    case seconds(Double)
    case marker(String)

    /// Reads `text`; anything that is neither a bar nor a time is a marker's name.
    public init(parsing text: String) {
        let trimmed = text.trimmingSpaces
        if trimmed.hasSuffix("s"), let seconds = Double(trimmed.dropLast()), seconds >= 0, seconds.isFinite {
            self = .seconds(seconds)
            return
        }
        let parts = trimmed.split(separator: ":", omittingEmptySubsequences: false)
        if (1...2).contains(parts.count), let bar = Int(parts[0]), bar >= 1 {
            let beat = parts.count == 2 ? Int(parts[1]) : 1
            if let beat, beat >= 1 {
                self = .barBeat(bar: bar, beat: beat)
                return
            }
        }
        self = .marker(trimmed)
    }

    public var description: String {
        switch self {
        case .barBeat(let bar, let beat): "\(bar):\(beat)"
        case .seconds(let seconds): "\(seconds)s"
        case .marker(let name): name
        }
    }

    /// The tick this position names in `song`, or `nil` for a marker the song does not have.
    /// Positions past the end name the end.
    /// - Thread: any.
    public func tick(in song: Song) -> Tick? {
        let tick: Tick
        switch self {
        case .barBeat(let bar, let beat):
            tick = song.tempoMap.tick(bar: bar, beat: beat)
        case .seconds(let seconds):
            tick = song.tempoMap.tick(after: HostDuration(seconds: seconds)).rounded
        case .marker(let name):
            guard let marker = song.markers.first(where: { $0.name == name }) else { return nil }
            tick = marker.tick
        }
        return min(tick, song.endTick)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
