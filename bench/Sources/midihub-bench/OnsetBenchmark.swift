import Foundation
import MIDICore
import Sequencer
import Synth

extension BenchmarkRow {
    /// Onset accuracy: 200 short notes at random frames, each alone (at least 0.75 s of
    /// silence between them); the onset in the rendered audio is the first non-zero sample after
    /// 1000 frames of exact silence, compared with round(t × 48000). midihub renders in-process through the
    /// same schedule and offline renderer as `midihub render`, without the reverb (its tail
    /// would hide the silence); FluidSynth renders with reverb and chorus off, to float WAV.
    /// The value is the largest |error| in frames (lower is better).
    @Sendable static func onsetError(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let bank = try PresetBankLoader.load(directory: context.repository.appendingPathComponent("patches/presets").path)
        let (file, expected) = onsetSong()

        let schedule = RenderSchedule(file: file, sampleRate: polyphonyRate)
        let renderer = OfflineRenderer(schedule: schedule, nodes: [SynthNode(bank: bank)], blockSize: 512, tail: .fixed(seconds: 0.5))
        var sink = MemorySink()
        try renderer.render(into: &sink)
        let ours = try onsetErrors(in: sink.left, expected: expected, who: "midihub")

        let folder = context.dataFolder.appendingPathComponent("onset")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let midi = folder.appendingPathComponent("onsets.mid"), wav = folder.appendingPathComponent("out.wav")
        try Data(file.smfBytes()).write(to: midi)
        _ = try ChildProcess.run(renderers.fluidsynth, renderers.fluidsynthArguments(midi, output: wav, extra: [
            "synth.reverb.active=0", "synth.chorus.active=0", "audio.file.format=float"]))
        let theirs = try onsetErrors(in: WAVReader(url: wav, readSamples: true).left, expected: expected, who: "fluidsynth")

        func summary(_ errors: [Int]) -> String {
            let sorted = errors.sorted()
            return "median \(sorted[sorted.count / 2]), range \(sorted.first!)…\(sorted.last!)"
        }
        return BenchmarkResult(
            title: "onset error of 200 notes at random frames, max |frames| (midihub \(summary(ours)); fluidsynth \(summary(theirs)))",
            unit: "frames", midihub: Double(ours.map(abs).max()!), anchorName: "fluidsynth",
            anchor: Double(theirs.map(abs).max()!), lowerIsBetter: true)
    }

    /// 200 notes of program 17 (drawbar organ: no attack transient, short release), 50 ms
    /// long, at random frames 0.75–1.25 s apart; at 48 kHz one tick is one frame (480
    /// ticks per quarter, 10 ms per quarter).
    private static func onsetSong() -> (MIDIFile, [Int]) {
        var random = SplitMix64(state: 2024)
        var events = [TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: 10_000))),
                      TrackEvent(tick: 0, .midi(.programChange(channel: 0, program: 16)))]
        var frames: [Int] = []
        for index in 0..<200 {
            let frame = 24_000 + index * 48_000 + Int(random.next() % 24_000)
            let note = UInt8(48 + random.next() % 36)
            frames.append(frame)
            events.append(TrackEvent(tick: Tick(UInt64(frame)), .midi(.noteOn(channel: 0, note: note, velocity: 100))))
            events.append(TrackEvent(tick: Tick(UInt64(frame + 2_400)), .midi(.noteOff(channel: 0, note: note, velocity: 0))))
        }
        let track = MIDITrack(events: events, endTick: Tick(UInt64(frames.last! + 48_000)))
        return (MIDIFile(format: 0, division: .ticksPerQuarter(480), tracks: [track]), frames)
    }

    /// Detected minus expected onset frame for each note.
    private static func onsetErrors(in samples: [Float], expected: [Int], who: String) throws -> [Int] {
        return try expected.map { frame in
            var i = frame - 12_000
            var quiet = 0
            while i < min(frame + 12_000, samples.count) {
                if samples[i] != 0 {
                    if quiet >= 1_000 { return i - frame }
                    quiet = 0
                } else {
                    quiet += 1
                }
                i += 1
            }
            throw BenchmarkError(description: "\(who): no onset after silence near frame \(frame)")
        }
    }
}
