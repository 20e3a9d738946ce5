import MIDICore
import Testing

/// Song positions in fixed-point ticks, and their conversions to host time at a tempo in
/// integers: no `Double` seconds on the way, so a tick lands on the same nanosecond however
/// far into a song it is.
@Suite struct TickTests {
    @Test func wholeTicksAndTheFractionBetween() {
        let half = Tick(units: Tick.unitsPerTick / 2)
        #expect(Tick(960) + half == Tick(units: 960 * Tick.unitsPerTick + Tick.unitsPerTick / 2))
        #expect((Tick(960) + half).whole == 960)
        #expect((Tick(960) + half).wholeRoundedUp == 961)
        #expect((Tick(960) + half).nearestWhole == 961)
        #expect((Tick(960) + Tick(units: 1)).nearestWhole == 960)
        #expect(Tick(960).wholeRoundedUp == 960)
        #expect((Tick(960) + half).description == "960.5")
        #expect(Tick(960).description == "960")
        #expect(Tick(480, over: 24) == 20)  // a clock pulse at 480 PPQ
        #expect(Tick(100, over: 24) == Tick(units: 100 * Tick.unitsPerTick / 24))  // 4.1666… ticks at 100 PPQ
    }

    @Test func arithmeticSaturatesInsteadOfWrapping() {
        #expect(Tick(5) - Tick(9) == .zero)
        #expect(Tick.max + Tick(1) == .max)
        #expect(Tick(UInt64.max) == .max)
        #expect(Tick.scaled(.max, by: .max, over: 2) == .max)
        #expect(Tick.scaled(6, by: 7, over: 0) == .max)
    }

    @Test func aFileOrATextCannotNameATickPastTheLast() {
        #expect(Tick(exactly: 281_474_976_710_655) == Tick(281_474_976_710_655))
        #expect(Tick(exactly: 281_474_976_710_656) == nil)
        #expect(Tick(1920).adding(Tick(480)) == Tick(2400))
        #expect(Tick.max.adding(Tick(units: 1)) == nil)
        #expect((Tick(960) + Tick(units: Tick.unitsPerTick / 2)).rounded == Tick(961))
        #expect((Tick(960) + Tick(units: 1)).rounded == Tick(960))
    }

    @Test func aTempoConvertsExactly() {
        let rate = TickRate(microsecondsPerQuarter: 500_000, ticksPerQuarter: 480)  // 120 BPM
        #expect(rate.duration(of: 480) == 0.5)
        #expect(rate.span(of: 0.5) == 480)
        #expect(rate.span(of: -1) == .zero)
        // A tick is 1,041,666.67 ns: a day of ticks is off by less than a nanosecond, not
        // by the microseconds a Double's 52 bits would lose.
        let day: HostDuration = 86_400
        #expect(rate.span(of: day) == Tick(82_944_000))
        #expect(rate.duration(of: Tick(82_944_000)) == day)
        #expect(rate.duration(of: Tick(82_944_001)) == HostDuration(nanoseconds: 86_400_001_041_666))
    }

    @Test func anOverrideIsToTheNanosecondPerQuarter() {
        let rate = TickRate(beatsPerMinute: 90, ticksPerQuarter: 96)  // 666,666,667 ns a quarter
        #expect(rate.duration(of: 96) == HostDuration(nanoseconds: 666_666_667))
        #expect(rate.span(of: HostDuration(nanoseconds: 666_666_667)) == 96)
    }

    @Test func dropFrameSMPTEIsThirtyThousandFramesInTenHundredAndOneSeconds() {
        let rate = TickRate(framesPerSecond: 29, ticksPerFrame: 4)
        #expect(rate.duration(of: Tick(120_000)) == 1001)
        #expect(rate.span(of: 1001) == Tick(120_000))
        let film = TickRate(framesPerSecond: 24, ticksPerFrame: 10)
        #expect(film.duration(of: 240) == 1)
    }
}
