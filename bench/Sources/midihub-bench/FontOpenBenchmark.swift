import Foundation
import MIDICore

extension BenchmarkRow {
    /// Time to open FluidR3_GM (142 MB) and play a first note: wall time of a whole
    /// `midihub render --soundfont` of a one-note file against FluidSynth rendering the same
    /// file with the same font (best of 3; lower is better). midihub maps the font and
    /// reads only what the note plays; FluidSynth loads every sample.
    @Sendable static func fontOpen(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let folder = context.dataFolder.appendingPathComponent("font-open")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let midi = folder.appendingPathComponent("one-note.mid"), wav = folder.appendingPathComponent("out.wav")
        let note = MIDITrack(events: [TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 100))),
                                      TrackEvent(tick: 48, .midi(.noteOff(channel: 0, note: 60, velocity: 0)))], endTick: 96)
        try Data(MIDIFile(format: 0, division: .ticksPerQuarter(480), tracks: [note]).smfBytes()).write(to: midi)
        let ours = try Timing.best(of: 3) {
            try Timing.runQuietly(renderers.midihub, renderers.midihubArguments(midi, output: wav, instrument: .soundfont))
        }
        let theirs = try Timing.best(of: 3) {
            try Timing.runQuietly(renderers.fluidsynth, renderers.fluidsynthArguments(midi, output: wav))
        }
        return BenchmarkResult(title: "open FluidR3_GM (142 MB) and render a first note, whole process, wall time",
                               unit: "ms", midihub: ours * 1000, anchorName: "fluidsynth", anchor: theirs * 1000,
                               lowerIsBetter: true)
    }
}
