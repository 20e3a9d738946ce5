import Testing
import MIDICore

@Suite struct MergedEventsTests {
    @Test func mergesByTickKeepingTrackThenFileOrderOnTies() {
        let a = TrackEvent(tick: 0, .meta(.text("a")))
        let b = TrackEvent(tick: 10, .meta(.text("b")))
        let c = TrackEvent(tick: 10, .meta(.text("c")))
        let d = TrackEvent(tick: 5, .meta(.text("d")))
        let e = TrackEvent(tick: 10, .meta(.text("e")))
        let file = MIDIFile(tracks: [MIDITrack(events: [a, b, c], endTick: 20), MIDITrack(events: [d, e], endTick: 40)])
        #expect(file.mergedEvents() == [
            MergedEvent(track: 0, event: a), MergedEvent(track: 1, event: d), MergedEvent(track: 0, event: b),
            MergedEvent(track: 0, event: c), MergedEvent(track: 1, event: e),
        ])
        #expect(file.durationTicks == 40)
    }

    @Test func mergedGeneratedFileIsOrderedAndComplete() {
        let file = GeneratedFiles.file(seed: 3, tracks: 5, eventsPerTrack: 400)
        let merged = file.mergedEvents()
        #expect(merged.count == file.tracks.reduce(0) { $0 + $1.events.count })
        #expect(zip(merged, merged.dropFirst()).allSatisfy { ($0.event.tick, $0.track) <= ($1.event.tick, $1.track) })
        for (index, track) in file.tracks.enumerated() {
            #expect(merged.filter { $0.track == index }.map(\.event) == track.events)
        }
    }

    @Test func emptyFileHasNoEventsAndZeroDuration() {
        #expect(MIDIFile().mergedEvents().isEmpty)
        #expect(MIDIFile().durationTicks == 0)
    }
}
