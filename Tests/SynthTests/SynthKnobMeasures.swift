import Foundation
import RenderCore
@testable import Synth

/// Playing the synth with its knobs set, and measuring what they move: the filter's cutoff,
/// a component's amplitude, the LFO's rate.
enum KnobPlay {
    static let rate = 48_000.0

    /// The left channel of a synth of `timbre`: `knobs` set at frame 0 (before any note),
    /// then `events` (absolute frames, ≥ 1).
    static func render(_ timbre: Timbre, _ knobs: [(SynthNode.Parameter, Float)] = [],
                       _ events: [(Int64, RenderEvent)], frames: Int64) -> [Float] {
        let settings = knobs.map { (Int64(0), RenderEvent.parameter(node: 0, id: $0.0.rawValue, value: $0.1)) }
        return SynthTests.render(settings + events, frames: frames, nodes: [synth(timbre)]).left
    }

    /// `note` held from frame 1 to `release` (never, by default) with `knobs` set.
    static func hold(_ timbre: Timbre, _ knobs: [(SynthNode.Parameter, Float)] = [], note: UInt8 = 69,
                     frames: Int64 = 48_000, release: Int64? = nil) -> [Float] {
        var events: [(Int64, RenderEvent)] = [(1, .noteOn(channel: 0, note: note, velocity: 100))]
        if let release { events.append((release, .noteOff(channel: 0, note: note))) }
        return render(timbre, knobs, events, frames: frames)
    }

    /// The amplitude (peak) of the `frequency` component of `samples[range]`, by correlation
    /// with a sine and a cosine (exact for windows holding whole cycles, close for long ones).
    static func amplitude(_ samples: [Float], _ range: Range<Int>, frequency: Double) -> Double {
        var re = 0.0, im = 0.0
        let w = 2 * Double.pi * frequency / rate
        for i in range {
            let x = Double(samples[i]), phase = w * Double(i - range.lowerBound)
            re += x * cos(phase)
            im += x * sin(phase)
        }
        return 2 * (re * re + im * im).squareRoot() / Double(range.count)
    }

    /// The cutoff of the voice filter (lowpass, resonance 0: |H| = 1 / (1 + (f/fc)²)) from how
    /// much it lowers a sine of `frequency`: `level` through it, `open` with the filter open.
    static func cutoff(level: Double, open: Double, frequency: Double) -> Double {
        frequency / max(open / level - 1, 1e-12).squareRoot()
    }

    /// The measured cutoff in `range` of a sine of `frequency` hertz through `filtered`,
    /// against the same sound with the filter open.
    static func cutoff(_ filtered: [Float], open: [Float], _ range: Range<Int>, frequency: Double) -> Double {
        cutoff(level: amplitude(filtered, range, frequency: frequency), open: amplitude(open, range, frequency: frequency),
               frequency: frequency)
    }

    /// Semitones from `reference` to `value`.
    static func semitones(_ value: Double, from reference: Double) -> Double { 12 * log2(value / reference) }

    /// The sound's level every `window` frames (10 ms by default: the peak of each window) from `start`.
    static func levels(_ samples: [Float], from start: Int, window: Int = 480) -> [Float] {
        stride(from: start, to: samples.count - window, by: window).map { peak(samples, $0..<$0 + window) }
    }

    /// The rate in hertz at which the 10 ms levels of `samples` from `start` rise and fall.
    static func modulationRate(_ samples: [Float], from start: Int) -> Double {
        let levels = levels(samples, from: start)
        let mean = levels.reduce(0, +) / Float(levels.count)
        return measureFrequency(levels.map { $0 - mean }, in: 0..<levels.count, sampleRate: 100)
    }

    /// The frequency of the note in each window of `width` frames from `start` to `end`,
    /// with the window's middle frame.
    static func pitchTrack(_ samples: [Float], from start: Int, to end: Int, width: Int = 960) -> [(middle: Int, hertz: Double)] {
        stride(from: start, to: end - width, by: width / 2).map {
            ($0 + width / 2, measureFrequency(samples, in: $0..<$0 + width, sampleRate: rate))
        }
    }
}

extension Timbre {
    /// A sine at the key (oscillator 1 alone) through the lowpass at `cutoff` hertz, no key
    /// tracking, steady level: what the filter measurements play.
    static func filtered(cutoff: Float) -> Timbre {
        var timbre = testTimbre(.sine, sustain: 1, release: 0.05)
        timbre.filterCutoff = cutoff
        timbre.filterResonance = 0
        return timbre
    }
}
