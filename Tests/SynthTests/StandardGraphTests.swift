import RenderCore
import Sequencer
import SoundFont
import Testing
@testable import Synth

/// The graph `render` and `play` use: a SoundFont instrument beside the reverb and chorus
/// buses its sends feed; the built-in synth into one reverb.
@Suite struct StandardGraphTests {
    private static let sineFont = TestSoundFont(frames: TestSoundFont.sine(cycles: 100, count: 4_800), loop: 0..<4_800,
                                                zones: [.init(generators: [(TestGenerator.sampleModes, 1)])])

    /// 4096 frames of the left output of `nodes` wired by `wiring`, a held C4 on channel 1
    /// with CC 91 and 93 at `reverb` and `chorus`.
    private func render(_ nodes: [any Node], wiring: AudioWiring?, reverb: UInt8, chorus: UInt8) -> [Float] {
        let engine = RenderEngine(crossfade: .off)
        engine.install(RenderProgram(nodes: nodes, wiring: wiring, format: RenderFormat(sampleRate: 48_000, maxFrames: 64)))
        engine.events.push(.controlChange(channel: 0, controller: 91, value: reverb))
        engine.events.push(.controlChange(channel: 0, controller: 93, value: chorus))
        engine.events.push(.noteOn(channel: 0, note: 60, velocity: 127))
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        var left: [Float] = []
        for _ in 0..<64 {
            engine.render(frames: 64, bus: buffer.bus, host: HostSync())
            left += UnsafeBufferPointer(start: buffer.left, count: 64)
        }
        return left
    }

    private func graphOutput(reverb: UInt8, chorus: UInt8) -> [Float] {
        let graph = StandardGraph(playing: SoundFontNode(font: Self.sineFont.font, voiceCapacity: 16))
        return render(graph.nodes, wiring: graph.wiring, reverb: reverb, chorus: chorus)
    }

    private func rms(_ samples: [Float]) -> Float {
        (samples.reduce(0) { $0 + $1 * $1 } / Float(max(1, samples.count))).squareRoot()
    }

    @Test func aSoundFontIsHeardDryBesideTheBusesItsSendsFeed() {
        let graph = StandardGraph(playing: SoundFontNode(font: Self.sineFont.font, voiceCapacity: 16))
        #expect(graph.nodes.count == 3)
        #expect(graph.wiring.toOutput == [0, 1, 2])
        #expect(graph.wiring.inputs[1] == [AudioWiring.Port(0, output: 1)] && graph.wiring.inputs[2] == [AudioWiring.Port(0, output: 2)])
        let dryAlone = render([SoundFontNode(font: Self.sineFont.font, voiceCapacity: 16)], wiring: nil, reverb: 0, chorus: 0)
        #expect(graphOutput(reverb: 0, chorus: 0) == dryAlone, "with CC 91 and 93 at 0 the buses add nothing")
        let withReverb = graphOutput(reverb: 127, chorus: 0), withChorus = graphOutput(reverb: 0, chorus: 127)
        let reverbPart = zip(withReverb, dryAlone).map { $0 - $1 }, chorusPart = zip(withChorus, dryAlone).map { $0 - $1 }
        #expect(rms(reverbPart) > 0.01 * rms(dryAlone), "CC 91 sends the note to the reverb bus: \(rms(reverbPart))")
        #expect(rms(chorusPart) > 0.01 * rms(dryAlone), "CC 93 sends the note to the chorus bus: \(rms(chorusPart))")
    }

    @Test func theSynthPlaysIntoOneReverb() throws {
        let graph = StandardGraph(bank: PresetBank(timbre: Timbre()))
        #expect(graph.nodes.count == 2 && graph.nodes[1] is ReverbNode)
        #expect(graph.wiring == .chain(takesInput: [false, true]))
    }
}
