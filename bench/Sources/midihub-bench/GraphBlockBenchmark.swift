import Foundation
import RenderCore
import Sequencer
import Synth

extension BenchmarkRow {
    /// CPU time of one 64-frame block at 48 kHz of a mixing graph — 16 synths, each on a
    /// mixer strip, each strip sending through a send-level strip to one reverb bus, the
    /// strips and the bus summed on a master strip, then a master chain (EQ, compressor) —
    /// against the same 16 synths, playing the same chords, summed into one reverb as the
    /// hub rendered before it had an audio graph (one chain). The ratio is the graph's price.
    @Sendable static func graphBlockCost(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let bank = try PresetBankLoader.load(directory: context.repository.appendingPathComponent("patches/presets").path)
        let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)
        func synths() -> [any Node] { (0..<16).map { _ in SynthNode(bank: bank, voiceCapacity: 16) } }

        let flat = RenderProgram(nodes: synths() + [ReverbNode()], format: format)
        // 0…15 synths, 16…31 their strips, 32…47 the sends, 48 the reverb bus, 49 the master
        // strip, 50 the EQ, 51 the compressor.
        let strips: [any Node] = (0..<16).map { _ in MixerStripNode() }
        let sends: [any Node] = (0..<16).map { _ in MixerStripNode() }
        let nodes = synths() + strips + sends + [ReverbNode(), MixerStripNode(), EqualizerNode(), CompressorNode()]
        typealias Port = AudioWiring.Port
        var inputs: [[Port]] = (0..<16).map { _ in [] } + (0..<16).map { [Port($0)] } + (16..<32).map { [Port($0)] }
        inputs += [(32..<48).map { Port($0) }, (16..<32).map { Port($0) } + [48], [49], [50]]
        let graph = RenderProgram(nodes: nodes, wiring: AudioWiring(inputs: inputs, toOutput: [51]), format: format)

        let anchor = meanBlockSeconds(flat, synthCount: 16, sendLevels: [])
        let ours = meanBlockSeconds(graph, synthCount: 16, sendLevels: Array(32..<48))
        return BenchmarkResult(
            title: "render cost of a 64-frame block: 16 synths on strips with sends to a reverb bus and a master chain "
                + "(EQ, compressor), 4-note chords",
            unit: "µs", midihub: ours * 1e6, anchorName: "the same synths into one reverb (no graph)", anchor: anchor * 1e6,
            lowerIsBetter: true)
    }

    /// Plays a held 4-note chord on each of the first `synthCount` nodes (sends at
    /// −12 dB on the nodes in `sendLevels`), then the mean thread CPU time of a block over 8000.
    private static func meanBlockSeconds(_ program: RenderProgram, synthCount: Int, sendLevels: [Int]) -> Double {
        let engine = RenderEngine(crossfade: .off)
        engine.install(program)
        for node in 0..<synthCount {
            for (index, note) in [48, 55, 60, 64].enumerated() {
                engine.events.push(RenderEvent(frame: UInt32(index), kind: .noteOn, channel: 0, data1: UInt8(note + node % 5),
                                               data2: 90, node: UInt16(node)))
            }
        }
        for node in sendLevels {
            engine.events.push(.parameter(node: UInt16(node), id: MixerStripNode.Parameter.gain.rawValue, value: -12))
        }
        let output = AudioBuffer(channels: 2, capacity: 64)
        var host = HostSync(sampleRate: 48_000, transport: .playing)
        for _ in 0..<500 {
            engine.render(frames: 64, bus: output.bus, host: host)
            host = host.advanced(by: 64)
        }
        let blocks = 8_000
        let start = threadCPUSeconds()
        for _ in 0..<blocks {
            engine.render(frames: 64, bus: output.bus, host: host)
            host = host.advanced(by: 64)
        }
        return (threadCPUSeconds() - start) / Double(blocks)
    }
}
