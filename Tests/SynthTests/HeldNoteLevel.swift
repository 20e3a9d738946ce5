import RenderCore
@testable import Synth

/// The RMS level of a held C4 at full velocity on `output` of a SoundFont node, after
/// `events`: 64-frame blocks at 48 kHz, the second half of 64 blocks measured.
func heldNoteLevel(of node: SoundFontNode, on output: AudioWiring.Port, after events: [RenderEvent]) -> Float {
    let engine = RenderEngine(crossfade: .off)
    let wiring = AudioWiring(inputs: [[]], toOutput: [output])
    engine.install(RenderProgram(nodes: [node], wiring: wiring, format: RenderFormat(sampleRate: 48_000, maxFrames: 64)))
    for event in events { engine.events.push(event) }
    engine.events.push(.noteOn(channel: 0, note: 60, velocity: 127))
    let buffer = AudioBuffer(channels: 2, capacity: 64)
    var sum: Float = 0
    for block in 0..<64 {
        engine.render(frames: 64, bus: buffer.bus, host: HostSync())
        if block >= 32 { for i in 0..<64 { sum += buffer.left[i] * buffer.left[i] } }
    }
    return (sum / (32 * 64)).squareRoot()
}
