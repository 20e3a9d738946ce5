import Foundation
import RenderCore
import Testing
@testable import Synth

/// Glide, measured: the pitch of a note played after another, window by window, slides in
/// a straight line (in semitones) from the previous note to its own in the glide's time.
@Suite struct SynthGlideTests {
    static let start = 9_600

    /// `first` from frame 1, released at 0.1 s (a 10 ms release), then `second` from 0.2 s.
    static func play(glide: Float, from first: UInt8, to second: UInt8) -> [Float] {
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 0, note: first, velocity: 100)),
            (4_800, .noteOff(channel: 0, note: first)),
            (Int64(start), .noteOn(channel: 0, note: second, velocity: 100)),
        ]
        return KnobPlay.render(testTimbre(.sine, release: 0.01), [(.glide, glide)], events, frames: 72_000)
    }

    /// The second note's pitch (a MIDI note number) in 20 ms windows: (seconds after its
    /// note-on at the window's middle, pitch).
    static func pitches(_ samples: [Float]) -> [(time: Double, pitch: Double)] {
        KnobPlay.pitchTrack(samples, from: start, to: samples.count).map {
            (Double($0.middle - start) / KnobPlay.rate, 69 + 12 * log2($0.hertz / 440))
        }
    }

    /// The glide's time: the interval over the slope of a straight line fitted to the pitches
    /// between `from` and `to` seconds.
    static func glideTime(_ track: [(time: Double, pitch: Double)], interval: Double, from: Double, to: Double) -> Double {
        let points = track.filter { $0.time >= from && $0.time <= to }
        let meanTime = points.map(\.time).reduce(0, +) / Double(points.count)
        let meanPitch = points.map(\.pitch).reduce(0, +) / Double(points.count)
        let slope = points.map { ($0.time - meanTime) * ($0.pitch - meanPitch) }.reduce(0, +)
            / points.map { ($0.time - meanTime) * ($0.time - meanTime) }.reduce(0, +)
        return abs(interval / slope)
    }

    @Test func withoutGlideTheNoteStartsOnItsPitch() {
        let track = Self.pitches(Self.play(glide: 0, from: 57, to: 69))
        #expect(track.allSatisfy { abs($0.pitch - 69) < 0.01 }, "\(track.prefix(4))")
    }

    @Test(arguments: [(Float(0.2), UInt8(57), UInt8(69)), (0.5, 81, 69), (0.1, 60, 67)])
    func glideSlidesFromThePreviousNoteInItsTime(glide: Float, first: UInt8, second: UInt8) {
        let seconds = Double(glide)
        let track = Self.pitches(Self.play(glide: glide, from: first, to: second))
        let interval = Double(second) - Double(first)
        let measured = Self.glideTime(track, interval: interval, from: 0.02, to: seconds - 0.02)
        #expect(abs(measured / seconds - 1) < 0.03, "glide \(glide) s from \(first) to \(second): measured \(measured) s")
        // Starting at the first note, arriving at the second, and staying there.
        let early = track.first { $0.time >= 0.01 }!
        #expect(abs(early.pitch - (Double(first) + interval * early.time / seconds)) < 0.15, "at \(early.time) s: \(early.pitch)")
        let arrived = track.filter { $0.time > seconds + 0.015 }
        #expect(!arrived.isEmpty && arrived.allSatisfy { abs($0.pitch - Double(second)) < 0.01 },
                "after the glide: \(arrived.prefix(3))")
    }

    @Test func drumsDoNotGlide() {
        let drum = testTimbre(.sine, release: 0.01)
        let events: [(Int64, RenderEvent)] = [
            (1, .noteOn(channel: 9, note: 57, velocity: 100)),
            (4_800, .noteOff(channel: 9, note: 57)),
            (Int64(Self.start), .noteOn(channel: 9, note: 69, velocity: 100)),
        ]
        let knobs = [(Int64(0), RenderEvent.parameter(node: 0, id: SynthNode.Parameter.glide.rawValue, value: 0.2))]
        let out = render(knobs + events, frames: 48_000, nodes: [synth(drum, drums: [57: drum, 69: drum])]).left
        let track = Self.pitches(out)
        #expect(track.allSatisfy { abs($0.pitch - 69) < 0.01 }, "\(track.prefix(4))")
    }
}
