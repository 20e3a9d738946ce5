import Foundation
import RenderCore
import Sequencer
import Testing
@testable import Synth

@Suite struct PitchAndTimingTests {
    @Test(arguments: [44_100.0, 48_000, 96_000])
    func a4RendersAt440HzWithinATenthOfACent(sampleRate: Double) {
        let frames = Int64(sampleRate * 3)
        let out = render([(0, .noteOn(channel: 0, note: 69, velocity: 100))], frames: frames,
                         nodes: [synth(testTimbre())], sampleRate: sampleRate)
        let f = measureFrequency(out.left, in: Int(sampleRate * 0.2)..<Int(frames), sampleRate: sampleRate)
        #expect(abs(cents(f, from: 440)) < 0.1, "measured \(f) Hz")
    }

    @Test func noteOnStartsExactlyAtItsFrame() {
        for blockSize in [16, 64, 100, 512] {
            for k: Int64 in [0, 1, 15, 16, 17, 63, 64, 65, 99, 100, 101, 511, 512, 513, 1000, 2047] {
                let out = render([(k, .noteOn(channel: 0, note: 60, velocity: 100))], frames: k + 200,
                                 nodes: [synth(testTimbre(.square))], blockSize: blockSize)
                let first = out.left.firstIndex { $0 != 0 }
                #expect(first == Int(k), "block \(blockSize), note-on at \(k), first sound at \(String(describing: first))")
            }
        }
    }

    @Test func pitchBendFollowsTheRPN0Range() {
        let rate = 48_000.0
        let setRange: [(Int64, RenderEvent)] = [
            (0, .controlChange(channel: 0, controller: 101, value: 0)),
            (0, .controlChange(channel: 0, controller: 100, value: 0)),
            (0, .controlChange(channel: 0, controller: 6, value: 12)),
            (0, .pitchBend(channel: 0, value: 16383)),
            (0, .noteOn(channel: 0, note: 57, velocity: 100)),
        ]
        let wide = render(setRange, frames: 96_000, nodes: [synth(testTimbre())])
        let expectedWide = 220 * pow(2, 12 * (8191.0 / 8192) / 12)
        #expect(abs(cents(measureFrequency(wide.left, in: 4800..<96_000, sampleRate: rate), from: expectedWide)) < 0.5)

        let defaultRange = render([(0, .pitchBend(channel: 0, value: 0)), (0, .noteOn(channel: 0, note: 69, velocity: 100))],
                                  frames: 96_000, nodes: [synth(testTimbre())])
        let expectedDown = 440 * pow(2, -2.0 / 12)
        #expect(abs(cents(measureFrequency(defaultRange.left, in: 4800..<96_000, sampleRate: rate), from: expectedDown)) < 0.5)
    }

    @Test func envelopeStagesTakeTheirTimes() {
        let rate = 48_000
        // attack 10 ms, decay 100 ms to 0.25, release 200 ms after note-off at 0.5 s.
        // A sine at 1047 Hz: 46 frames per cycle, so a 48-frame window holds a peak.
        let timbre = testTimbre(.sine, attack: 0.01, decay: 0.1, sustain: 0.25, release: 0.2)
        let node = synth(timbre)
        let out = render([(0, .noteOn(channel: 0, note: 84, velocity: 100)), (24_000, .noteOff(channel: 0, note: 84))],
                         frames: 48_000, nodes: [node]).left
        let attackEnd = rate / 100
        let top = peak(out, attackEnd - 24..<attackEnd + 24)
        #expect(peak(out, 0..<attackEnd / 10) < top * 0.11, "attack rises linearly")
        let middle = peak(out, attackEnd / 2 - 24..<attackEnd / 2 + 24) / top
        #expect(middle > 0.45 && middle < 0.56, "attack is half way at half time: \(middle)")
        let afterDecay = peak(out, attackEnd + rate / 10..<attackEnd + rate / 10 + 48) / top
        #expect(abs(afterDecay - 0.25) < 0.01, "decay reaches sustain in its time: \(afterDecay)")
        let afterRelease = peak(out, 24_000 + rate / 5..<24_000 + rate / 5 + 48) / top
        #expect(afterRelease < 0.25 * 0.0012 && afterRelease > 0, "release falls 60 dB in its time: \(afterRelease)")
        #expect(out[(24_000 + rate * 2 / 5)...].allSatisfy { $0 == 0 }, "the voice ends")
        #expect(node.activeVoiceCount == 0)
    }

    @Test func sustainPedalHoldsReleasedNotes() {
        let node = synth(testTimbre(release: 0.01))
        let events: [(Int64, RenderEvent)] = [
            (0, .controlChange(channel: 0, controller: 64, value: 127)),
            (0, .noteOn(channel: 0, note: 60, velocity: 100)),
            (4_800, .noteOff(channel: 0, note: 60)),
            (48_000, .controlChange(channel: 0, controller: 64, value: 0)),
        ]
        let out = render(events, frames: 72_000, nodes: [node]).left
        #expect(peak(out, 40_000..<48_000) > 0.01, "held by the pedal after note-off")
        #expect(out[52_000...].allSatisfy { $0 == 0 }, "released with the pedal")
    }

    @Test func sameInputRendersBitIdentically() {
        let bank = PresetBank(timbre: { var t = testTimbre(.saw); t.noiseLevel = 0.3; t.lfoPitch = 20; return t }())
        var events: [(Int64, RenderEvent)] = []
        for i in 0..<200 {
            let channel = UInt8(i % 4), note = UInt8(40 + i % 40)
            let event: RenderEvent = i % 3 == 2 ? .noteOff(channel: channel, note: note)
                                                : .noteOn(channel: channel, note: note, velocity: 90)
            events.append((Int64(i * 317), event))
        }
        func once() -> MemorySink {
            render(events, frames: 96_000, nodes: [SynthNode(bank: bank), ChorusNode(), StereoDelayNode(), ReverbNode()])
        }
        let a = once(), b = once()
        #expect(a.left == b.left && a.right == b.right)
        #expect(a.left.contains { $0 != 0 })
    }
}
