import HubTestSupport
import MIDICore
import Testing
@testable import Hub

@Suite struct ArpeggiatorTests {
    /// 120 BPM: a beat is 0.5 s; rate 2 → a step every 0.25 s.
    let clock = TempoClock(beatsPerMinute: 120)

    func window(_ arp: inout ProcessorNode, _ start: Double, _ end: Double, clock: TempoClock? = nil) -> [TimedMIDI] {
        var out: [TimedMIDI] = []
        arp.generate(from: HostTime(seconds: start), to: HostTime(seconds: end), clock: clock ?? self.clock, into: &out)
        return out
    }

    func noteOns(_ events: [TimedMIDI]) -> [(Double, UInt8)] {
        events.compactMap { if case .noteOn(_, let note, _) = $0.message { ($0.time.seconds, note) } else { nil } }
    }

    @Test func playsUpOnTheGridAndConsumesHeldNotes() {
        var arp = ProcessorNode(Arpeggiator())
        #expect(run(&arp, [on(64, 0.1), on(60, 0.1), on(67, 0.1)]).isEmpty)
        let out = window(&arp, 0, 1.0)
        #expect(noteOns(out).map(\.0) == [0.25, 0.5, 0.75])
        #expect(noteOns(out).map(\.1) == [60, 64, 67])
        let offs = out.filter { if case .noteOff = $0.message { true } else { false } }
        #expect(offs.map(\.time) == [0.375, 0.625, 0.875])
    }

    @Test func windowsSplitAnywhereGiveTheSameEvents() {
        var whole = ProcessorNode(Arpeggiator()), pieces = ProcessorNode(Arpeggiator())
        let held = [on(60, 0), on(63, 0), on(67, 0)]
        _ = run(&whole, held)
        _ = run(&pieces, held)
        let expected = window(&whole, 0, 3)
        var got: [TimedMIDI] = []
        var start = 0.0
        for end in stride(from: 0.07, through: 3.0, by: 0.07) + [3.0] {
            got += window(&pieces, start, end)
            start = end
        }
        #expect(got == expected)
        #expect(noteOns(expected).count == 12)
    }

    @Test func patternsAndOctaves() throws {
        func notes(pattern: Arpeggiator.Pattern, octaves: Float) throws -> [UInt8] {
            var arp = ProcessorNode(Arpeggiator())
            try arp.set("pattern", to: Float(pattern.rawValue))
            try arp.set("octaves", to: octaves)
            _ = run(&arp, [on(67, 0), on(60, 0), on(64, 0)])
            return noteOns(window(&arp, 0, 1.9)).map(\.1)
        }
        #expect(try notes(pattern: .up, octaves: 1) == [60, 64, 67, 60, 64, 67, 60, 64])
        #expect(try notes(pattern: .down, octaves: 1) == [67, 64, 60, 67, 64, 60, 67, 64])
        #expect(try notes(pattern: .upDown, octaves: 1) == [60, 64, 67, 64, 60, 64, 67, 64])
        #expect(try notes(pattern: .asPlayed, octaves: 1) == [67, 60, 64, 67, 60, 64, 67, 60])
        #expect(try notes(pattern: .up, octaves: 2) == [60, 64, 67, 72, 76, 79, 60, 64])
    }

    @Test func followsTempoChanges() {
        var arp = ProcessorNode(Arpeggiator())
        _ = run(&arp, [on(60, 0)])
        let first = noteOns(window(&arp, 0, 1))
        #expect(first.map(\.0) == [0, 0.25, 0.5, 0.75])
        let faster = clock.changingTempo(to: 240, at: 1)
        let second = noteOns(window(&arp, 1, 1.5, clock: faster))
        #expect(second.map(\.0) == [1, 1.125, 1.25, 1.375])
    }

    @Test func releaseStopsStepsButEndsTheSoundingNote() {
        var arp = ProcessorNode(Arpeggiator())
        _ = run(&arp, [on(60, 0)])
        let before = window(&arp, 0, 0.3)
        _ = run(&arp, [off(60, 0.3)])
        let after = window(&arp, 0.3, 2)
        #expect(noteOns(before).count == 2)
        #expect(noteOns(after).isEmpty)
        #expect(after == [TimedMIDI(time: 0.375, message: .noteOff(channel: 0, note: 60, velocity: 0))])
    }

    @Test func tellsWhenItsNextEventIsDueSoTheOwnerWakesForIt() {
        var arp = ProcessorNode(Arpeggiator())
        #expect(arp.nextGeneratedTime(clock: clock) == nil, "nothing held, nothing planned")
        _ = run(&arp, [on(60, 0.1)])
        #expect(arp.nextGeneratedTime(clock: clock) == 0.25, "the first step, on the grid after the key")
        let first = window(&arp, 0, 0.26)
        #expect(noteOns(first).map(\.0) == [0.25])
        #expect(arp.nextGeneratedTime(clock: clock) == 0.375, "the step's note-off comes before the next step")
        _ = window(&arp, 0.26, 0.38)
        #expect(arp.nextGeneratedTime(clock: clock) == 0.5)
        _ = window(&arp, 0.38, 0.55)
        _ = run(&arp, [off(60, 0.55)])
        #expect(arp.nextGeneratedTime(clock: clock) == 0.625, "released: only the sounding note's off is left")
        _ = window(&arp, 0.55, 0.7)
        #expect(arp.nextGeneratedTime(clock: clock) == nil)
    }

    @Test func otherMessagesPassWithTheirTime() {
        var arp = ProcessorNode(Arpeggiator())
        let bend = TimedMIDI(time: 0.123, message: .pitchBend(channel: 0, value: 100))
        #expect(run(&arp, [bend]) == [bend])
    }
}

extension ArpeggiatorTests {
    /// A song starts at 0.93 s at 100 BPM (a beat every 0.6 s, a step every 0.3 s): from the
    /// switch on, the steps fall on the song's grid, none twice, none lost.
    @Test func aNewClockMovesTheStepsOntoItsGrid() {
        var arp = ProcessorNode(Arpeggiator())
        _ = run(&arp, [on(60, 0.1)])
        #expect(noteOns(window(&arp, 0, 1.0)).map(\.0) == [0.25, 0.5, 0.75])
        let song = TempoClock(beatsPerMinute: 100, origin: 0.93)
        arp.regrid(at: 1.0, clock: song)
        let steps = noteOns(window(&arp, 1.0, 2.0, clock: song)).map(\.0)
        #expect(steps.count == 3)
        for (step, expected) in zip(steps, [1.23, 1.53, 1.83]) { #expect(abs(step - expected) < 1e-9) }
        var idle = ProcessorNode(Arpeggiator())
        idle.regrid(at: 1, clock: song)
        #expect(window(&idle, 1, 2, clock: song).isEmpty, "no held notes: nothing to move")
    }
}
