import TestSupport
import Testing
import MIDICore

@Suite struct TempoMapTests {
    private func file(division: MIDIFile.Division = .ticksPerQuarter(480), _ tracks: [[TrackEvent]]) -> MIDIFile {
        MIDIFile(format: 1, division: division, tracks: tracks.map { MIDITrack(events: $0) })
    }

    private func tempo(_ tick: Tick, bpm: UInt32) -> TrackEvent {
        TrackEvent(tick: tick, .meta(.tempo(microsecondsPerQuarter: 60_000_000 / bpm)))
    }

    private func meter(_ tick: Tick, _ numerator: UInt8, _ power: UInt8) -> TrackEvent {
        TrackEvent(tick: tick, .meta(.timeSignature(numerator: numerator, denominatorPower: power, clocksPerClick: 24, thirtySecondsPerQuarter: 8)))
    }

    @Test func defaultsTo120BPMAndFourFour() {
        let map = TempoMap(file: file([[]]))
        #expect(map.duration(at: 480) == 0.5)
        #expect(map.tempoChanges == [TempoChange(tick: 0, microsecondsPerQuarter: 500_000)])
        #expect(map.timeSignatures.map { [Int($0.tick.whole), $0.numerator, $0.denominator] } == [[0, 4, 4]])
        #expect(map.ticksPerQuarter == 480)
    }

    @Test func tempoChangeFrom120To60() {
        // 960 ticks at 120 BPM = 1 s, then 480 ticks at 60 BPM = 1 s more.
        let map = TempoMap(file: file([[tempo(0, bpm: 120), tempo(960, bpm: 60)]]))
        #expect(map.duration(at: 960) == 1.0)
        #expect(map.duration(at: 1200) == 1.5)
        #expect(map.duration(at: 1440) == 2.0)
        #expect(map.duration(at: Tick(1200) + Tick(units: Tick.unitsPerTick / 2)) == HostDuration(nanoseconds: 1_501_041_666))
        #expect(map.tick(after: 1.5) == 1200)
        #expect(map.tick(after: 3.0) == 1920)
        #expect(map.tick(after: 0.25) == 240)
        #expect(map.tick(after: -1) == 0)
    }

    @Test func timesAndTicksInvertEachOtherAcrossManyChanges() throws {
        var random = SeededGenerator(seed: 42)
        var events: [TrackEvent] = []
        var tick: UInt64 = 0
        for _ in 0..<200 {
            tick += UInt64.random(in: 1...2000, using: &random)
            events.append(TrackEvent(tick: Tick(tick), .meta(.tempo(microsecondsPerQuarter: UInt32.random(in: 200_000...2_000_000, using: &random)))))
        }
        let map = TempoMap(file: file(division: .ticksPerQuarter(96), [events]))
        for change in map.tempoChanges {
            // Each change falls within a nanosecond: the tick it names comes back whole.
            #expect(map.tick(after: map.duration(at: change.tick) + HostDuration(nanoseconds: 1)).whole == change.tick.whole)
            #expect(map.duration(at: change.tick + 1) > map.duration(at: change.tick))
        }
        // Deep into the song a tick still lands on its own nanosecond: the last change's time
        // is the sum of the segments' exact lengths, each rounded once.
        let last = try #require(map.tempoChanges.last)
        var expected: Int64 = 0
        for (change, next) in zip(map.tempoChanges, map.tempoChanges.dropFirst()) {
            expected += Int64((next.tick - change.tick).whole * UInt64(change.microsecondsPerQuarter) * 1000 / 96)
        }
        #expect(map.duration(at: last.tick).nanoseconds == expected)
    }

    @Test func tempoEventsComeFromAllTracksAndTheLaterTrackWinsATie() {
        let map = TempoMap(file: file([[tempo(0, bpm: 100), tempo(480, bpm: 90)], [tempo(480, bpm: 60)]]))
        #expect(map.tempoChanges == [
            TempoChange(tick: 0, microsecondsPerQuarter: 600_000), TempoChange(tick: 480, microsecondsPerQuarter: 1_000_000),
        ])
        #expect(map.duration(at: 960) == 1.6)
    }

    @Test func smpteDivisionIgnoresTempo() {
        // 25 fps × 40 ticks per frame = 1000 ticks per second.
        let map = TempoMap(file: file(division: .smpte(framesPerSecond: 25, ticksPerFrame: 40), [[tempo(0, bpm: 60)]]))
        #expect(map.duration(at: 1000) == 1.0)
        #expect(map.duration(at: 2500) == 2.5)
        #expect(map.tick(after: 0.5) == 500)
        #expect(map.ticksPerQuarter == 1000)  // one quarter at 60 BPM
    }

    @Test func smpte29MeansDropFrame2997() {
        let map = TempoMap(file: file(division: .smpte(framesPerSecond: 29, ticksPerFrame: 10), [[]]))
        // 29.97 is NTSC's 30000/1001 frames a second: 30,000 frames of 10 ticks last 1001 s exactly.
        #expect(map.duration(at: 300_000) == 1001)
    }

    @Test func barsAndBeatsInFourFour() {
        let map = TempoMap(file: file([[]]))
        #expect(map.barBeat(atTick: 0) == BarBeat(bar: 1, beat: 1, tick: 0))
        #expect(map.barBeat(atTick: 479) == BarBeat(bar: 1, beat: 1, tick: 479))
        #expect(map.barBeat(atTick: Tick(480 * 3)) == BarBeat(bar: 1, beat: 4, tick: 0))
        #expect(map.barBeat(atTick: 1920 + 80) == BarBeat(bar: 2, beat: 1, tick: 80))
        #expect(map.tick(bar: 3, beat: 2) == Tick(2 * 1920 + 480))
        #expect(BarBeat(bar: 2, beat: 1, tick: 80).description == "2:1+80")
    }

    @Test func barsAreCountedAcrossTimeSignatureChanges() {
        // 4/4 for two bars (3840 ticks), then 3/4 (1440-tick bars), then 6/8 from bar 5 (240-tick beats).
        let map = TempoMap(file: file([[meter(0, 4, 2), meter(3840, 3, 2), meter(Tick(3840 + 2 * 1440), 6, 3)]]))
        #expect(map.barBeat(atTick: 3840) == BarBeat(bar: 3, beat: 1, tick: 0))
        #expect(map.barBeat(atTick: 3840 + 1440 + 500) == BarBeat(bar: 4, beat: 2, tick: 20))
        let sixEight: Tick = 3840 + 2880
        #expect(map.barBeat(atTick: sixEight) == BarBeat(bar: 5, beat: 1, tick: 0))
        #expect(map.barBeat(atTick: sixEight + 1440 + 250) == BarBeat(bar: 6, beat: 2, tick: 10))
        #expect(map.tick(bar: 4, beat: 3) == Tick(3840 + 1440 + 960))
        #expect(map.tick(bar: 6, beat: 2) == sixEight + 1440 + 240)
        #expect(map.timeSignatures.map { $0.denominator } == [4, 4, 8])
    }

    @Test func aTimeSignatureInsideABarStartsANewBar() {
        // 4/4, then 2/4 at tick 2400 (bar 2 is cut short at 480 ticks).
        let map = TempoMap(file: file([[meter(2400, 2, 2)]]))
        #expect(map.barBeat(atTick: 2399) == BarBeat(bar: 2, beat: 1, tick: 479))
        #expect(map.barBeat(atTick: 2400) == BarBeat(bar: 3, beat: 1, tick: 0))
        #expect(map.tick(bar: 3, beat: 1) == 2400)
    }

    @Test func hostileTimeSignaturesAreSanitised() {
        let map = TempoMap(file: file([[meter(0, 0, 255)]]))
        #expect(map.timeSignatures[0].numerator == 1)
        #expect(map.timeSignatures[0].denominator == 256)
        #expect(map.barBeat(atTick: .max).bar > 1)
        #expect(map.tick(bar: Int.max, beat: Int.min) > 0)
    }
}
