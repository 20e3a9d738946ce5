import Foundation
import RenderCore
import SoundFont
import Synth

extension BenchmarkRow {
    /// Time to open FluidR3_GM (142 MB) and hear a first note, in-process for both (no
    /// process start-up): midihub opens the font (maps it, reads its structure), builds the
    /// soundfont instrument, starts a note and renders 64-frame blocks until one is not
    /// silent; FluidSynth's library loads the font (`fluid_synth_sfload`, which reads every
    /// sample), starts the note and renders the same way. Best of 3, lower is better.
    @Sendable static func fontOpen(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let path = renderers.soundFont.path
        let left = UnsafeMutablePointer<Float>.allocate(capacity: 64), right = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer { left.deallocate(); right.deallocate() }
        func heard() -> Bool { (0..<64).contains { left[$0] != 0 || right[$0] != 0 } }

        let ours = try Timing.best(of: 3) {
            let node = SoundFontNode(font: try SoundFont.open(path))
            node.prepare(format: RenderFormat(sampleRate: polyphonyRate, maxFrames: 64))
            var note = [RenderEvent.noteOn(channel: 0, note: 60, velocity: 100)]
            var blocks = 0
            repeat {
                left.update(repeating: 0, count: 64)
                right.update(repeating: 0, count: 64)
                note.withUnsafeBufferPointer { events in
                    node.process(ProcessContext(frames: 64, events: events, bus: AudioBus(left: left, right: right), host: HostSync()))
                }
                note = []
                blocks += 1
            } while !heard() && blocks < 100
            guard heard() else { throw BenchmarkError(description: "midihub's first note stayed silent") }
        }
        let theirs = try Timing.best(of: 3) {
            let fluidsynth = try FluidSynthLibrary(soundFont: path, sampleRate: polyphonyRate, midiChannels: 16, polyphony: 256)
            fluidsynth.noteOn(channel: 0, key: 60, velocity: 100)
            var blocks = 0
            repeat {
                fluidsynth.render(frames: 64, left: left, right: right)
                blocks += 1
            } while !heard() && blocks < 100
            guard heard() else { throw BenchmarkError(description: "FluidSynth's first note stayed silent") }
        }
        return BenchmarkResult(title: "open FluidR3_GM (142 MB) and hear a first note, in-process",
                               unit: "ms", midihub: ours * 1000, anchorName: "fluidsynth", anchor: theirs * 1000,
                               lowerIsBetter: true)
    }
}
