import Foundation
import MIDICore
import RenderCore
import Testing
import TestSupport
@testable import Synth

private extension Range<Int> {
    func shifted(by frames: Int) -> Range<Int> { lowerBound + frames..<upperBound + frames }
}

/// The soundfont instrument's sound parameters (cutoff, resonance, attack, decay, release,
/// tuning, transpose, reverb and chorus send) and its SoundFont NRPNs, each measured on
/// rendered audio: the level of a tone against the filter, the time an envelope takes, the
/// measured frequency, the send outputs' level; the attack offset also against FluidSynth
/// given the same generator offset by NRPN.
struct SoundFontSoundParameterTests {
    typealias Parameter = SoundFontNode.Parameter

    /// 1000 Hz at 48 kHz, looped whole; `generators` added to its one zone.
    private static func sineFont(_ generators: [(UInt16, Int)] = []) -> TestSoundFont {
        TestSoundFont(frames: TestSoundFont.sine(cycles: 100, count: 4_800), loop: 0..<4_800,
                      zones: [.init(generators: [(TestGenerator.sampleModes, 1)] + generators)])
    }

    private static let volumeAttack: UInt16 = 34, volumeDecay: UInt16 = 36, volumeSustain: UInt16 = 37

    private func knob(_ parameter: Parameter, _ value: Float, at frame: Int64 = 0) -> (Int64, RenderEvent) {
        (frame, .parameter(node: 0, id: parameter.rawValue, value: value))
    }

    private func cc(_ controller: UInt8, _ value: UInt8, channel: UInt8 = 0) -> (Int64, RenderEvent) {
        (0, .controlChange(channel: channel, controller: controller, value: value))
    }

    /// The SoundFont NRPN (MSB 120, LSB the generator) setting `data` (14 bits, 8192 none).
    private func nrpn(_ generator: UInt8, data: Int, channel: UInt8 = 0) -> [(Int64, RenderEvent)] {
        [cc(99, 120, channel: channel), cc(98, generator, channel: channel), cc(38, UInt8(data & 127), channel: channel),
         cc(6, UInt8(data >> 7), channel: channel)]
    }

    private func play(_ font: TestSoundFont, _ events: [(Int64, RenderEvent)], key: UInt8 = 60, channel: UInt8 = 0,
                      off: Int64? = nil, frames: Int64 = 24_000) -> [Float] {
        var all = events + [(0, .noteOn(channel: channel, note: key, velocity: 127))]
        if let off { all.append((off, .noteOff(channel: channel, note: key, velocity: 0))) }
        return render(all, frames: frames, nodes: [SoundFontNode(font: font.font, voiceCapacity: 16)]).left
    }

    private func rms(_ samples: [Float], _ range: Range<Int>) -> Double {
        (samples[range].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(range.count)).squareRoot()
    }

    /// Peak level of each 240-frame window (5 ms at 48 kHz).
    private func envelope(_ samples: [Float]) -> [Float] {
        stride(from: 0, to: samples.count - 239, by: 240).map { peak(samples, $0..<$0 + 240) }
    }

    /// Seconds from `start` (frames) until the level first reaches half its peak.
    private func secondsToHalfLevel(_ samples: [Float], from start: Int = 0) -> Double {
        let levels = envelope(samples), top = levels.max() ?? 0
        let window = levels.firstIndex { $0 >= top / 2 } ?? levels.count
        return Double(window * 240 + 120 - start) / 48_000
    }

    /// Seconds from `start` (frames) until the level, past its peak, first falls 20 dB below it.
    private func secondsToFall20dB(_ samples: [Float], from start: Int) -> Double {
        let levels = envelope(samples), top = levels.max() ?? 0
        let first = max(start / 240, levels.firstIndex(of: top) ?? 0)
        let window = levels[first...].firstIndex { $0 < top / 10 } ?? levels.count
        return Double(window * 240 + 120 - start) / 48_000
    }

    @Test func everyParameterAtItsDefaultLeavesTheSoundExactlyAsItIs() {
        let font = Self.sineFont([(TestGenerator.filterCutoff, 7_000), (TestGenerator.filterQ, 100)])
        let defaults = SoundFontNode.parameterInfos(voiceCapacity: 16).dropFirst(3).map { info in
            (Int64(0), RenderEvent.parameter(node: 0, id: info.id, value: info.defaultValue))
        }
        #expect(defaults.count == 9)
        let untouched = play(font, [], off: 12_000), set = play(font, defaults, off: 12_000)
        #expect(untouched == set, "a parameter at its default moved the sound")
    }

    @Test func transposeAndTuningMoveEveryNotesPitch() {
        let cases: [([(Int64, RenderEvent)], Double)] = [
            ([knob(.transpose, 7)], 700), ([knob(.transpose, -12)], -1_200), ([knob(.transpose, 2.4)], 200),
            ([knob(.tuning, -30)], -30), ([knob(.tuning, 50), knob(.transpose, 1)], 150),
            // Turned while the note sounds: the note follows (tuning smoothed over 10 ms).
            ([knob(.tuning, 25, at: 4_800)], 25), ([knob(.transpose, 5, at: 4_800)], 500),
        ]
        for (events, expected) in cases {
            let output = play(Self.sineFont(), events)
            let measured = measureFrequency(output, in: 9_600..<24_000, sampleRate: 48_000)
            #expect(abs(cents(measured, from: 1_000) - expected) < 1, "\(events): \(measured) Hz")
        }
    }

    @Test func cutoffMovesTheFilterOnNewAndSoundingNotes() {
        let open = rms(play(Self.sineFont(), []), 4_800..<24_000)
        // 13500 − 6000 cents: a cutoff of 627 Hz, below the 1000 Hz tone.
        let closed = rms(play(Self.sineFont(), [knob(.cutoff, -60)]), 4_800..<24_000)
        #expect(closed < open / 2, "cutoff −60 semitones: \(closed) against \(open)")
        let turned = play(Self.sineFont(), [knob(.cutoff, -60, at: 9_600)])
        #expect(abs(rms(turned, 2_400..<9_600) - open) < open * 0.01, "before the turn")
        #expect(abs(rms(turned, 14_400..<24_000) - closed) < closed * 0.02, "a sounding note follows the turn")
        // A zone's low cutoff opened by the knob.
        let dark = Self.sineFont([(TestGenerator.filterCutoff, 7_000)])
        #expect(rms(play(dark, [knob(.cutoff, 48)]), 4_800..<24_000) > 2 * rms(play(dark, []), 4_800..<24_000))
    }

    @Test func resonanceRaisesTheLevelAtTheCutoff() {
        // The zone's cutoff at the tone: 1200·log2(1000 / 8.176) = 8321 cents.
        let font = Self.sineFont([(TestGenerator.filterCutoff, 8_321)])
        let flat = rms(play(font, []), 4_800..<24_000)
        let resonant = rms(play(font, [knob(.resonance, 12)]), 4_800..<24_000)
        #expect(resonant > 1.8 * flat, "resonance +12 dB at the cutoff: \(resonant) against \(flat)")
    }

    @Test func attackDecayAndReleaseScaleTheVolumeEnvelopesTimes() {
        // Attack 0.5 s (−1200 timecents), linear in amplitude: half level at 0.25 s.
        let slow = Self.sineFont([(Self.volumeAttack, -1_200)])
        let attack = secondsToHalfLevel(play(slow, [], frames: 96_000))
        let doubled = secondsToHalfLevel(play(slow, [knob(.attack, 2)], frames: 96_000))
        #expect(abs(attack - 0.25) < 0.01, "the zone's attack: \(attack) s to half level")
        #expect(abs(doubled / attack - 2) < 0.05, "attack ×2: \(doubled) s against \(attack) s")

        // Decay 1 s (0 timecents) toward −48 dB: 20 dB down after 20/96 of it.
        let decaying = Self.sineFont([(Self.volumeDecay, 0), (Self.volumeSustain, 480)])
        let decay = secondsToFall20dB(play(decaying, [], frames: 96_000), from: 0)
        let longer = secondsToFall20dB(play(decaying, [knob(.decay, 2)], frames: 96_000), from: 0)
        #expect(abs(longer / decay - 2) < 0.1, "decay ×2: \(longer) s against \(decay) s")

        // Release 1 s (0 timecents) after a note-off at 0.25 s.
        let releasing = Self.sineFont([(TestGenerator.releaseVolumeEnvelope, 0)])
        let release = secondsToFall20dB(play(releasing, [], off: 12_000, frames: 96_000), from: 12_000)
        let shorter = secondsToFall20dB(play(releasing, [knob(.release, 0.5)], off: 12_000, frames: 96_000), from: 12_000)
        #expect(abs(release - 0.208) < 0.02, "the zone's release: 20 dB in \(release) s")
        #expect(abs(shorter / release - 0.5) < 0.1, "release ×0.5: \(shorter) s against \(release) s")
    }

    /// The attack offset through the SoundFont NRPN (generator 34, +1200 timecents: data
    /// 8192 + 600 at FluidSynth's scale of 2) in FluidSynth's render and in ours, and
    /// through the `attack` parameter at ×2: the same time to half level.
    @Test func theAttackOffsetSoundsAsFluidSynthPlaysTheSameNRPN() throws {
        let font = Self.sineFont([(Self.volumeAttack, -1_200)])
        let offset = nrpn(34, data: 8_192 + 600)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-sf-nrpn-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let theirs = try fluidSynthRender(font, events: offset, folder: folder)
        let noteFrame = 4_800  // the note-on at 0.1 s
        let reference = secondsToHalfLevel(theirs, from: noteFrame)
        let nrpnOurs = secondsToHalfLevel(play(font, offset, frames: 96_000))
        let knobOurs = secondsToHalfLevel(play(font, [knob(.attack, 2)], frames: 96_000))
        #expect(abs(reference - 0.5) < 0.02, "FluidSynth: \(reference) s to half level")
        #expect(abs(nrpnOurs / reference - 1) < 0.03, "NRPN: \(nrpnOurs) s, FluidSynth \(reference) s")
        #expect(abs(knobOurs / reference - 1) < 0.03, "attack ×2: \(knobOurs) s, FluidSynth \(reference) s")
    }

    /// The filter's cutoff offset by NRPN (generator 8, data 8192 − 3000: −6000 cents at
    /// FluidSynth's scale of 2, so 627 Hz under a 1000 Hz tone) and the release's (generator
    /// 38, −600: −1200 timecents, half the time): what each changes in FluidSynth's render,
    /// it changes as much in ours.
    @Test func cutoffAndReleaseOffsetsChangeTheSoundAsInFluidSynth() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-sf-nrpn2-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func decibels(_ ratio: Double) -> Double { 20 * log10(ratio) }
        let held = 9_600..<72_000  // 0.1 s after the note-on to 1.4 s
        let font = Self.sineFont([(TestGenerator.releaseVolumeEnvelope, 0)])
        let closing = nrpn(8, data: 8_192 - 3_000)
        let theirs = decibels(rms(try fluidSynthRender(font, events: closing, folder: folder), held.shifted(by: 4_800))
                              / rms(try fluidSynthRender(font, events: [], folder: folder), held.shifted(by: 4_800)))
        let ours = decibels(rms(play(font, closing, frames: 96_000), held) / rms(play(font, [], frames: 96_000), held))
        #expect(theirs < -6, "FluidSynth's tone under the closed filter: \(theirs) dB")
        #expect(abs(ours - theirs) < 0.5, "the closed filter: \(ours) dB here, \(theirs) dB in FluidSynth")

        let shortening = nrpn(38, data: 8_192 - 600)
        let offFrame = 96_000  // FluidSynth's note-off at 2 s (its note-on at 0.1 s; ours at 0, off 1.9 s later)
        let theirRelease = secondsToFall20dB(try fluidSynthRender(font, events: shortening, folder: folder), from: offFrame)
        let ourRelease = secondsToFall20dB(play(font, shortening, off: 91_200, frames: 120_000), from: 91_200)
        #expect(abs(theirRelease - 0.104) < 0.01, "FluidSynth's release: 20 dB in \(theirRelease) s")
        #expect(abs(ourRelease / theirRelease - 1) < 0.05, "the release: \(ourRelease) s here, \(theirRelease) s in FluidSynth")
    }

    /// FluidSynth's render (left side) of a note-on at 0.1 s held 1.9 s, after `events`.
    private func fluidSynthRender(_ font: TestSoundFont, events: [(Int64, RenderEvent)], folder: URL) throws -> [Float] {
        let fontFile = folder.appendingPathComponent("test.sf2"), midi = folder.appendingPathComponent("notes.mid")
        let raw = folder.appendingPathComponent("fluidsynth.raw")
        try Data(font.bytes).write(to: fontFile)
        var track: [TrackEvent] = events.map { _, event in
            TrackEvent(tick: 0, .midi(.controlChange(channel: event.channel, controller: event.data1, value: event.data2)))
        }
        track.append(TrackEvent(tick: 96, .midi(.noteOn(channel: 0, note: 60, velocity: 127))))  // 960 ticks a second
        track.append(TrackEvent(tick: 1_920, .midi(.noteOff(channel: 0, note: 60, velocity: 0))))
        try Data(MIDIFile(format: 0, tracks: [MIDITrack(events: track, endTick: 2_880)]).smfBytes()).write(to: midi)  // 1 s to release
        let result = try ShellScript.run(
            "fluidsynth -ni -q -R 0 -C 0 -r 48000 -o synth.cpu-cores=1 -T raw -O float -F '\(raw.path)' '\(fontFile.path)' '\(midi.path)'",
            in: folder)
        #expect(result.status == 0, "fluidsynth failed: \(result.output)")
        let data = try Data(contentsOf: raw)
        return data.withUnsafeBytes { bytes in
            let samples = bytes.bindMemory(to: Float.self)
            return stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
        }
    }

    @Test func aSoundFontNRPNOffsetsOneChannelsGeneratorAsFluidSynthScalesIt() {
        let knobbed = rms(play(Self.sineFont(), [knob(.cutoff, -60)]), 4_800..<24_000)
        // Generator 8 (initialFilterFc), FluidSynth's scale 2: data 8192 − 3000 is −6000 cents.
        let offset = nrpn(8, data: 8_192 - 3_000)
        let nrpnLevel = rms(play(Self.sineFont(), offset), 4_800..<24_000)
        #expect(abs(nrpnLevel - knobbed) < knobbed * 0.001, "NRPN −6000 cents: \(nrpnLevel), the knob's \(knobbed)")
        let open = rms(play(Self.sineFont(), []), 4_800..<24_000)
        #expect(abs(rms(play(Self.sineFont(), offset, channel: 1), 4_800..<24_000) - open) < open * 0.001,
                "another channel keeps its sound")
        #expect(abs(rms(play(Self.sineFont(), offset + [cc(121, 0)]), 4_800..<24_000) - open) < open * 0.001,
                "reset all controllers clears the channel's offsets, as in FluidSynth")
        // An NRPN neither SoundFont's nor GS's (MSB 2), and an RPN's data entry: nothing moves.
        for other in [[cc(99, 2), cc(98, 8), cc(38, 0), cc(6, 10)], [cc(101, 0), cc(100, 1), cc(38, 0), cc(6, 10)]] {
            #expect(abs(rms(play(Self.sineFont(), other), 4_800..<24_000) - open) < open * 0.001)
        }
        // Coarse tune (generator 51, scale 1): data 8192 + 3 is three semitones up.
        let tuned = play(Self.sineFont(), nrpn(51, data: 8_192 + 3))
        #expect(abs(cents(measureFrequency(tuned, in: 9_600..<24_000, sampleRate: 48_000), from: 1_000) - 300) < 1)
        // LSB 100 adds 100 to the selection: 100 + 8 would be generator 108, which does not exist.
        let far = [cc(99, 120), cc(98, 100), cc(98, 8), cc(38, 0), cc(6, 40)]
        #expect(abs(rms(play(Self.sineFont(), far), 4_800..<24_000) - open) < open * 0.001)
    }

    @Test func gsNRPNsMoveCutoffResonanceAndTheEnvelopeInSteps() {
        func gs(_ lsb: UInt8, _ value: UInt8) -> [(Int64, RenderEvent)] { [cc(99, 1), cc(98, lsb), cc(6, value)] }
        // Cutoff (LSB 0x20), 40 steps down of 75 cents from a zone's 9500 cents (2.0 kHz): the
        // `cutoff` knob at −30 semitones, the 1000 Hz tone above the filter's 350 Hz.
        let dark = Self.sineFont([(TestGenerator.filterCutoff, 9_500)])
        let open = rms(play(dark, []), 4_800..<24_000)
        let knobbed = rms(play(dark, [knob(.cutoff, -30)]), 4_800..<24_000)
        let stepped = rms(play(dark, gs(0x20, 24)), 4_800..<24_000)
        #expect(knobbed < open / 2 && abs(stepped - knobbed) < knobbed * 0.001, "GS cutoff −40: \(stepped), the knob's \(knobbed)")
        #expect(rms(play(dark, gs(0x20, 24) + gs(0x20, 64)), 4_800..<24_000) == open, "64: the preset's own")
        // Resonance (0x21), 24 steps up of half a decibel, at a zone cutoff on the tone: the knob's +12 dB.
        let resonant = Self.sineFont([(TestGenerator.filterCutoff, 8_321)])
        let knobQ = rms(play(resonant, [knob(.resonance, 12)]), 4_800..<24_000)
        #expect(abs(rms(play(resonant, gs(0x21, 88)), 4_800..<24_000) - knobQ) < knobQ * 0.001)
        // Attack (0x63), 16 steps of 75 timecents: twice the time, as the knob at ×2.
        let slow = Self.sineFont([(Self.volumeAttack, -1_200)])
        let attack = secondsToHalfLevel(play(slow, [], frames: 96_000))
        #expect(abs(secondsToHalfLevel(play(slow, gs(0x63, 80), frames: 96_000)) / attack - 2) < 0.05)
        // Release (0x66), 16 steps down: half the time.
        let releasing = Self.sineFont([(TestGenerator.releaseVolumeEnvelope, 0)])
        let release = secondsToFall20dB(play(releasing, [], off: 12_000, frames: 96_000), from: 12_000)
        let shorter = secondsToFall20dB(play(releasing, gs(0x66, 48), off: 12_000, frames: 96_000), from: 12_000)
        #expect(abs(shorter / release - 0.5) < 0.1, "GS release −16: \(shorter) s against \(release) s")
    }

    /// The level of a held C4's send output `port` with CC 91 and 93 at 127, after `events`.
    private func sendLevel(_ events: [RenderEvent], port: Int) -> Float {
        heldNoteLevel(of: SoundFontNode(font: Self.sineFont().font, voiceCapacity: 16), on: AudioWiring.Port(0, output: port),
                      after: events + [.controlChange(channel: 0, controller: 91, value: 127),
                                       .controlChange(channel: 0, controller: 93, value: 127)])
    }

    @Test func theSendKnobsScaleTheReverbAndChorusOutputs() {
        func set(_ parameter: Parameter, _ value: Float) -> RenderEvent {
            .parameter(node: 0, id: parameter.rawValue, value: value)
        }
        let reverb = sendLevel([], port: 1), chorus = sendLevel([], port: 2)
        #expect(reverb > 0 && chorus > 0)
        #expect(abs(sendLevel([set(.reverbSend, 200)], port: 1) / reverb - 2) < 0.01)
        #expect(sendLevel([set(.reverbSend, 0)], port: 1) == 0)
        #expect(abs(sendLevel([set(.chorusSend, 50)], port: 2) / chorus - 0.5) < 0.01)
        #expect(sendLevel([set(.reverbSend, 0)], port: 2) == chorus, "the reverb's knob leaves the chorus")
        #expect(sendLevel([set(.chorusSend, 150)], port: 0) == sendLevel([], port: 0), "and the dry sound")
    }
}
