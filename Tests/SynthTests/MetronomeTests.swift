import Foundation
import RenderCore
import Testing
@testable import Synth

@Suite struct MetronomeTests {
    /// Renders `frames` frames of `metronome` in 64-frame blocks from `host`; the left channel.
    private func render(_ metronome: MetronomeNode, frames: Int, host start: HostSync,
                        events: [RenderEvent] = []) -> [Float] {
        metronome.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        var host = start
        var left: [Float] = []
        for block in 0..<frames / 64 {
            buffer.bus.clear(frames: 64)
            (block == 0 ? events : []).withUnsafeBufferPointer { list in
                metronome.process(ProcessContext(frames: 64, events: list, bus: buffer.bus, host: host))
            }
            left += (0..<64).map { buffer.left[$0] }
            host = host.advanced(by: 64)
        }
        return left
    }

    /// Frames where a click starts: a sounding sample after at least 100 silent ones.
    private func onsets(_ samples: [Float]) -> [Int] {
        var onsets: [Int] = [], quiet = 100
        for (index, sample) in samples.enumerated() {
            if sample != 0, quiet >= 100 { onsets.append(index) }
            quiet = sample == 0 ? quiet + 1 : 0
        }
        return onsets
    }

    @Test func itClicksOnEveryBeatOnItsFrameAndAccentsTheBar() {
        // 120 bpm at 48 kHz: a quarter note is 24000 frames; started a little before beat 1.
        let host = HostSync(sampleRate: 48_000, tempo: 120, beat: -0.001, barStartBeat: -4, transport: .playing)
        let output = render(MetronomeNode(), frames: 120_064, host: host)
        #expect(onsets(output) == [24, 24_024, 48_024, 72_024, 96_024, 120_024], "\(onsets(output))")
        let accent = output[24], beat = output[24_024]
        #expect(output[96_024] == accent, "bar 2 starts accented too")
        #expect(abs(20 * log10(accent / beat) - 6) < 0.5, "the bar's first beat is 6 dB louder")
    }

    @Test func inSixEightItClicksTheEighthNotes() {
        let host = HostSync(sampleRate: 48_000, tempo: 120, beat: 0, timeSignatureNumerator: 6, timeSignatureDenominator: 8,
                            transport: .playing)
        #expect(onsets(render(MetronomeNode(), frames: 48_000, host: host)) == [0, 12_000, 24_000, 36_000])
    }

    @Test func itIsSilentWhileStoppedOrDisabled() {
        let stopped = HostSync(sampleRate: 48_000, tempo: 120, beat: 0, transport: .stopped)
        #expect(render(MetronomeNode(), frames: 48_000, host: stopped).allSatisfy { $0 == 0 })
        let playing = HostSync(sampleRate: 48_000, tempo: 120, beat: 0, transport: .playing)
        let disabled = RenderEvent.parameter(node: 0, id: MetronomeNode.Parameter.enabled.rawValue, value: 0)
        #expect(render(MetronomeNode(), frames: 48_000, host: playing, events: [disabled]).allSatisfy { $0 == 0 })
    }
}
