import Foundation
import RenderCore
import Testing
@testable import Synth

/// The LFO's knobs, measured: its rate by how fast it moves the level (target amplitude),
/// free or at the host's tempo; its depth at each target by how far it moves each.
@Suite struct SynthLFOKnobTests {
    /// The LFO on the level, fully: the level swings between 0 and the note's.
    static let tremolo: [(SynthNode.Parameter, Float)] = [(.lfoTarget, 2), (.lfoDepth, 1)]

    /// A note (A4) held for 4 s (or `frames`) through a preset whose own LFO runs at 5 Hz.
    static func play(_ knobs: [(SynthNode.Parameter, Float)], timbre: Timbre = testTimbre(.sine), note: UInt8 = 69,
                     frames: Int64 = 192_000) -> [Float] {
        var timbre = timbre
        timbre.lfoRate = 5
        return KnobPlay.hold(timbre, knobs, note: note, frames: frames)
    }

    @Test func lfoRateSetsEveryVoicesRateAndZeroKeepsThePresets() {
        let preset = KnobPlay.modulationRate(Self.play(Self.tremolo), from: 4_800)
        #expect(abs(preset / 5 - 1) < 0.02, "lfo rate 0: the preset's 5 Hz, measured \(preset)")
        for rate: Float in [0.5, 3, 12] {
            // 10 s: several cycles at the slowest.
            let measured = KnobPlay.modulationRate(Self.play(Self.tremolo + [(.lfoRate, rate)], frames: 480_000), from: 4_800)
            #expect(abs(measured / Double(rate) - 1) < 0.02, "lfo rate \(rate) Hz: measured \(measured)")
        }
    }

    /// A4 held for 10 s through the synth with the LFO synced, at `tempo` quarter notes a minute.
    static func synced(beats: Float, tempo: Double) -> [Float] {
        var timbre = testTimbre(.sine)
        timbre.lfoRate = 5
        let node = synth(timbre)
        let knobs = (tremolo + [(.lfoSync, 1), (.lfoBeats, beats), (.lfoRate, 7)]).map {
            (0, RenderEvent.parameter(node: 0, id: $0.0.rawValue, value: $0.1))
        }
        return renderAtTempo(node, tempo: tempo, events: knobs + [(1, .noteOn(channel: 0, note: 69, velocity: 100))],
                             frames: 480_000)
    }

    @Test(arguments: [(Float(0.5), 120.0, 4.0), (1, 90, 1.5), (0.25, 150, 10), (4, 120, 0.5)])
    func lfoSyncMakesACycleLastItsBeatsAtTheHostsTempo(beats: Float, tempo: Double, hertz: Double) {
        let measured = KnobPlay.modulationRate(Self.synced(beats: beats, tempo: tempo), from: 4_800)
        #expect(abs(measured / hertz - 1) < 0.02, "\(beats) beats at \(tempo) BPM: \(hertz) Hz, measured \(measured)")
    }

    @Test func lfoDepthAtThePitchIsVibrato() {
        func spread(_ samples: [Float]) -> Double {
            let frequencies = stride(from: 4_800, to: 96_000, by: 1_200).map {
                measureFrequency(samples, in: $0..<$0 + 1_200, sampleRate: KnobPlay.rate)
            }
            return cents(frequencies.max()!, from: frequencies.min()!)
        }
        #expect(spread(Self.play([(.lfoTarget, 0), (.lfoDepth, 0)])) < 2)
        // Depth 0.5: ±50 cents, a little less as 25 ms windows see it.
        let half = spread(Self.play([(.lfoTarget, 0), (.lfoDepth, 0.5)]))
        #expect(half > 70 && half < 105, "±50 cents: \(half) cents from top to bottom")
    }

    @Test func lfoDepthAtTheCutoffSweepsTheFilter() {
        let filtered = Timbre.filtered(cutoff: 440)
        let still = KnobPlay.levels(Self.play([(.lfoTarget, 1), (.lfoDepth, 0)], timbre: filtered), from: 4_800)
        #expect(still.max()! / still.min()! < 1.01)
        // ±24 semitones around 440 Hz: |H| from 1/(1 + 1/16) to 1/(1 + 16), 16 times apart
        // (a little less as 10 ms windows see the trough).
        let swept = KnobPlay.levels(Self.play([(.lfoTarget, 1), (.lfoDepth, 1)], timbre: filtered), from: 4_800)
        let ratio = Double(swept.max()! / swept.min()!)
        #expect(ratio > 10 && ratio < 17, "the level through the swept filter: × \(ratio)")
    }

    @Test func lfoDepthAtTheAmplitudeIsTremolo() {
        // A6 (1760 Hz): a 2 ms window holds three cycles, so the levels resolve the trough.
        let full = KnobPlay.levels(Self.play(Self.tremolo, note: 93), from: 4_800, window: 96)
        #expect(full.min()! < 0.02 * full.max()!, "depth 1: down to silence at the trough")
        let half = KnobPlay.levels(Self.play([(.lfoTarget, 2), (.lfoDepth, 0.5)], note: 93), from: 4_800, window: 96)
        #expect(abs(half.min()! / half.max()! - 0.5) < 0.03, "depth 0.5: down to half")
    }

    @Test func changingTheTargetMovesTheDepthOver() {
        // Tremolo until 1 s, then vibrato: the level stops moving, the pitch starts.
        var timbre = testTimbre(.sine)
        timbre.lfoRate = 5
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 0, note: 69, velocity: 100)),
            (48_000, .parameter(node: 0, id: SynthNode.Parameter.lfoTarget.rawValue, value: 0)),
        ]
        let out = KnobPlay.render(timbre, Self.tremolo, events, frames: 144_000)
        let after = KnobPlay.levels(Array(out[50_000...]), from: 0)
        #expect(after.max()! / after.min()! < 1.02, "no tremolo after the switch")
        let frequencies = stride(from: 50_000, to: 140_000, by: 1_200).map {
            measureFrequency(out, in: $0..<$0 + 1_200, sampleRate: KnobPlay.rate)
        }
        #expect(cents(frequencies.max()!, from: frequencies.min()!) > 140, "±100 cents of vibrato at depth 1")
    }
}

/// Renders `node` alone at `tempo` (the transport playing), in blocks of 64 frames, applying
/// `events` (absolute frames) in their blocks; returns the left channel.
func renderAtTempo(_ node: SynthNode, tempo: Double, events: [(frame: Int, event: RenderEvent)], frames: Int) -> [Float] {
    node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
    let silence = [Float](repeating: 0, count: frames)
    return processInBlocks(node, left: silence, right: silence, block: 64, events: events,
                           host: HostSync(sampleRate: 48_000, tempo: tempo, transport: .playing)).left
}
