import Foundation
import MIDICore
import RenderCore
import Sequencer
@testable import Synth

/// A sound whose waveform and envelope are easy to analyse.
func testTimbre(_ wave: Waveform = .sine, attack: Float = 0.0001, decay: Float = 0.1, sustain: Float = 1,
                release: Float = 0.05) -> Timbre {
    var timbre = Timbre()
    timbre.osc1Wave = wave
    timbre.osc1Level = 1
    timbre.osc2Level = 0
    timbre.filterCutoff = 20_000
    timbre.filterKeytrack = 0
    timbre.lfoWheelPitch = 0
    timbre.ampAttack = attack
    timbre.ampDecay = decay
    timbre.ampSustain = sustain
    timbre.ampRelease = release
    timbre.velocitySensitivity = 0
    return timbre
}

/// Renders events (absolute frames) through `nodes` with the offline renderer.
func render(_ events: [(frame: Int64, event: RenderEvent)], frames: Int64, nodes: [any Node],
            sampleRate: Double = 48_000, blockSize: Int = 64) -> MemorySink {
    let schedule = RenderSchedule(entries: events.map { .init(frame: FramePosition($0.frame), event: $0.event) }
        .sorted { $0.frame < $1.frame }, sampleRate: sampleRate, endFrame: FramePosition(frames))
    let renderer = OfflineRenderer(schedule: schedule, nodes: nodes, blockSize: blockSize, tail: .fixed(seconds: 0))
    var sink = MemorySink()
    try! renderer.render(into: &sink)
    return sink
}

func synth(_ timbre: Timbre, drums: [Int: Timbre] = [:], voices: Int = 64) -> SynthNode {
    SynthNode(bank: PresetBank(timbre: timbre, drums: drums), voiceCapacity: voices)
}

/// Frequency from the first and last upward zero crossings (linearly interpolated) in `range`.
func measureFrequency(_ samples: [Float], in range: Range<Int>, sampleRate: Double) -> Double {
    var first: Double?, last = 0.0, count = 0
    for i in range.lowerBound..<(range.upperBound - 1) where samples[i] <= 0 && samples[i + 1] > 0 {
        let crossing = Double(i) + Double(samples[i]) / Double(samples[i] - samples[i + 1])
        if first == nil { first = crossing }
        last = crossing
        count += 1
    }
    guard let first, count > 1 else { return 0 }
    return Double(count - 1) / (last - first) * sampleRate
}

func cents(_ frequency: Double, from reference: Double) -> Double {
    1200 * log2(frequency / reference)
}

/// Largest |sample| in `range`.
func peak(_ samples: [Float], _ range: Range<Int>) -> Float {
    samples[range].reduce(0) { max($0, abs($1)) }
}

/// A sine of `frequency` hertz and peak `amplitude`, `frames` frames long at 48 kHz.
func sine(_ frequency: Double, amplitude: Double = 0.5, frames: Int = 48_000) -> [Float] {
    (0..<frames).map { Float(amplitude * sin(2 * Double.pi * frequency * Double($0) / 48_000)) }
}

/// Runs `effect` (prepared at 48 kHz if it is not yet) over `left` and `right` in blocks of
/// 256 frames; `events` (absolute frames) reach it in the block of their frame.
func runEffect(_ effect: EffectNode, left: [Float], right: [Float],
               events: [(frame: Int, event: RenderEvent)] = []) -> (left: [Float], right: [Float]) {
    if effect.preparedFormat == nil { effect.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 256)) }
    return processInBlocks(effect, left: left, right: right, block: 256, events: events, host: HostSync())
}

/// Runs the prepared `node` over `left` and `right` in blocks of `block` frames, the host's
/// position advancing from `host`; `events` (absolute frames) reach it in the block of their frame.
func processInBlocks(_ node: any Node, left: [Float], right: [Float], block: Int,
                     events: [(frame: Int, event: RenderEvent)], host: HostSync) -> (left: [Float], right: [Float]) {
    var left = left, right = right, host = host
    for start in stride(from: 0, to: left.count, by: block) {
        let count = min(block, left.count - start)
        let inBlock = events.filter { (start..<start + count).contains($0.frame) }.map { entry in
            var event = entry.event
            event.frame = UInt32(entry.frame - start)
            return event
        }
        left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                inBlock.withUnsafeBufferPointer { inBlock in
                    node.process(ProcessContext(frames: count, events: inBlock,
                                                bus: AudioBus(left: l.baseAddress! + start, right: r.baseAddress! + start),
                                                host: host))
                }
            }
        }
        host = host.advanced(by: count)
    }
    return (left, right)
}

/// Root mean square of `samples`.
func rms(_ samples: ArraySlice<Float>) -> Double {
    (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
}

/// How many decibels louder `output` is than `input` (RMS).
func decibelChange(_ input: ArraySlice<Float>, to output: ArraySlice<Float>) -> Double {
    20 * log10(rms(output) / rms(input))
}
