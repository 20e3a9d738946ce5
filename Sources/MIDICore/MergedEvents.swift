/// An event of a multi-track file with the index of the track it came from.
///
/// - Thread: any (a plain value).
public struct MergedEvent: Hashable, Sendable {
    /// Index into `MIDIFile.tracks`.
    public var track: Int
    public var event: TrackEvent

    public init(track: Int, event: TrackEvent) {
        self.track = track
        self.event = event
    }
}

extension MIDIFile {
    /// All tracks' events in one list ordered by tick; ties keep track order, then
    /// file order (a stable merge).
    ///
    /// - Thread: any.
    public func mergedEvents() -> [MergedEvent] {
        var merged: [MergedEvent] = []
        merged.reserveCapacity(tracks.reduce(0) { $0 + $1.events.count })
        for (index, track) in tracks.enumerated() {
            merged.append(contentsOf: track.events.map { MergedEvent(track: index, event: $0) })
        }
        // Each track is already in tick order, so ordering by (tick, track, position
        // within track) — which the concatenation index encodes — is stable.
        let order = merged.indices.sorted {
            (merged[$0].event.tick, $0) < (merged[$1].event.tick, $1)
        }
        return order.map { merged[$0] }
    }

    /// The length of the file in ticks: the latest End of Track of all tracks.
    ///
    /// - Thread: any.
    public var durationTicks: Tick {
        tracks.reduce(0) { max($0, $1.endTick) }
    }
}
