import Foundation
import RenderCore
import Sequencer
import Testing
@testable import Synth

@Suite struct VoiceAndEffectTests {
    /// Renders events directly on a node (frame offsets inside one block of `frames`).
    private func process(_ node: SynthNode, _ events: [RenderEvent], frames: Int = 64, buffer: AudioBuffer) {
        buffer.bus.clear(frames: frames)
        events.withUnsafeBufferPointer { list in
            node.process(ProcessContext(frames: frames, events: list, bus: buffer.bus, host: HostSync()))
        }
    }

    private func voice(_ node: SynthNode, note: UInt8) -> Voice? {
        (0..<node.activeCount).map { node.voices![Int(node.activeVoices![$0])] }.first { $0.note == note }
    }

    @Test func voiceLimitStealsReleasedVoicesFirstThenOldest() {
        let node = synth(testTimbre(release: 5), voices: 8)
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        process(node, [.parameter(node: 0, id: SynthNode.Parameter.voiceLimit.rawValue, value: 3)], buffer: buffer)
        process(node, [60, 61, 62].map { .noteOn(channel: 0, note: $0, velocity: 100) }, buffer: buffer)
        process(node, [.noteOff(channel: 0, note: 61)], buffer: buffer)
        process(node, [.noteOn(channel: 0, note: 63, velocity: 100)], buffer: buffer)
        #expect(voice(node, note: 61)?.isFading == true, "the released voice is stolen")
        #expect(voice(node, note: 60)?.isFading == false)
        process(node, [.noteOn(channel: 0, note: 64, velocity: 100)], buffer: buffer)
        #expect(voice(node, note: 60)?.isFading == true, "then the oldest")
        #expect(node.soundingCount == 3)
        for _ in 0..<10 { process(node, [], buffer: buffer) }
        #expect(node.activeCount == 3, "stolen voices fade out and end within 5 ms")
    }

    @Test func stealingFadesInsteadOfClicking() {
        // One voice allowed; a second, nearly silent note steals the loud first one.
        var timbre = testTimbre(.square)
        timbre.velocitySensitivity = 1
        let node = synth(timbre, voices: 1)
        let out = render([(0, .noteOn(channel: 0, note: 40, velocity: 127)),
                          (4_000, .noteOn(channel: 0, note: 90, velocity: 1))], frames: 6_000, nodes: [node]).left
        let quietOld = (4_250..<4_500).map { abs(out[$0]) }.max()!
        #expect(quietOld < peak(out, 3_000..<4_000) * 0.2, "the stolen voice is gone within the fade")
        let before = peak(out, 3_000..<4_000)
        #expect(peak(out, 4_000..<4_060) > before * 0.6, "no hard cut at the steal")
        #expect(peak(out, 4_120..<4_180) < before * 0.55, "a gradual fade")
    }

    @Test func channelTenPlaysTheDrumKitByNoteNumber() {
        var kick = testTimbre(sustain: 0)
        kick.fixedNote = 28
        kick.ignoresNoteOff = true
        let out = render([(0, .noteOn(channel: 9, note: 36, velocity: 100)), (10, .noteOff(channel: 9, note: 36)),
                          (24_000, .noteOn(channel: 9, note: 20, velocity: 100))],
                         frames: 48_000, nodes: [synth(testTimbre(), drums: [36: kick])]).left
        #expect(peak(out, 0..<2_400) > 0.01, "mapped note sounds and ignores note-off")
        #expect(peak(out, 12_000..<48_000) == 0, "the kick decays; unmapped note 20 is silent")
        let f = measureFrequency(out, in: 100..<2_400, sampleRate: 48_000)
        #expect(abs(cents(f, from: 440 * pow(2, (28 - 69) / 12.0))) < 5, "fixed drum pitch")
    }

    @Test func controllersShapeTheChannel() {
        let base = render([(0, .noteOn(channel: 0, note: 69, velocity: 100))], frames: 9_600, nodes: [synth(testTimbre())])
        let quiet = render([(0, .controlChange(channel: 0, controller: 7, value: 50)),
                            (0, .controlChange(channel: 0, controller: 10, value: 0)),
                            (0, .noteOn(channel: 0, note: 69, velocity: 100))], frames: 9_600, nodes: [synth(testTimbre())])
        #expect(peak(quiet.left, 4_800..<9_600) < peak(base.left, 4_800..<9_600))
        #expect(peak(quiet.right, 4_800..<9_600) < 1e-6, "hard left pan")
        let silenced = render([(0, .noteOn(channel: 0, note: 69, velocity: 100)),
                               (2_400, .controlChange(channel: 0, controller: 120, value: 0))],
                              frames: 9_600, nodes: [synth(testTimbre(release: 5))])
        #expect(silenced.left[3_000...].allSatisfy { $0 == 0 }, "all sound off ends notes within the fade")
    }

    @Test func outputIsFiniteAndTheTailHasNoSubnormals() {
        var timbre = testTimbre(.saw, release: 0.3)
        timbre.filterResonance = 0.98
        timbre.filterCutoff = 200
        timbre.filterEnvAmount = 90
        timbre.noiseLevel = 1
        var events: [(Int64, RenderEvent)] = []
        for i in 0..<300 {
            let note = UInt8(20 + (i * 7) % 100)
            events.append((Int64(i * 97), .noteOn(channel: UInt8(i % 9), note: note, velocity: UInt8(1 + i % 127))))
            events.append((Int64(i * 97 + 2_000), .pitchBend(channel: UInt8(i % 9), value: UInt16((i * 331) % 16384))))
        }
        for channel in 0..<16 { events.append((40_000, .controlChange(channel: UInt8(channel), controller: 123, value: 0))) }
        let out = render(events, frames: 48_000 * 40, nodes: [synth(timbre), ChorusNode(), StereoDelayNode(), ReverbNode()])
        #expect(out.left.allSatisfy(\.isFinite) && out.right.allSatisfy(\.isFinite))
        let tail = out.left[(48_000 * 20)...] + out.right[(48_000 * 20)...]
        #expect(tail.allSatisfy { !$0.isSubnormal }, "decayed tail holds no subnormal samples")
    }

    @Test func tempoSyncedDelayEchoesAfterItsBeats() {
        // An impulse through a delay synced to half a beat at 120 BPM: echo after 0.25 s.
        let delay = StereoDelayNode()
        let setup: [(Int64, RenderEvent)] = [
            (0, .parameter(node: 1, id: StereoDelayNode.Parameter.sync.rawValue, value: 1)),
            (0, .parameter(node: 1, id: StereoDelayNode.Parameter.beats.rawValue, value: 0.5)),
            (0, .parameter(node: 1, id: StereoDelayNode.Parameter.pingPong.rawValue, value: 0)),
            (0, .parameter(node: 1, id: StereoDelayNode.Parameter.feedback.rawValue, value: 0)),
        ]
        let out = render(setup, frames: 24_000, nodes: [ImpulseNode(), delay]).left
        let echo = (1..<out.count).max { abs(out[$0]) < abs(out[$1]) }!
        #expect(echo == 12_000)
    }

    @Test func effectsExposeNamedParameters() {
        for node in [ReverbNode(), StereoDelayNode(), ChorusNode(), EqualizerNode(), CompressorNode()] as [EffectNode] {
            #expect(node.descriptor.kind == .effect)
            #expect(node.parameters.enumerated().allSatisfy { Int($1.id) == $0 && $1.range.contains($1.defaultValue) })
        }
        #expect(SynthNode(bank: PresetBank(timbre: Timbre())).descriptor.kind == .instrument)
    }
}

/// Writes a single 1.0 sample at the first frame it renders.
final class ImpulseNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .generator, subtype: "imps", manufacturer: "test", name: "impulse", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    private var fired = false

    func prepare(format: RenderFormat) { preparedFormat = format; fired = false }

    func process(_ context: ProcessContext) {
        guard !fired else { return }
        context.bus.left[0] = 1
        context.bus.right[0] = 1
        fired = true
    }
}
