import Foundation

extension BenchmarkRow {
    /// Seconds of audio per generated dense GM song (sets the row's run time).
    static let songSeconds = 40.0

    /// Offline render speed in × real time (audio seconds written ÷ CPU seconds, user +
    /// system, of the whole process including start-up, best of 2 per file, summed over
    /// the files) of `midihub render` against FluidSynth with FluidR3_GM on one core, both
    /// at 48 kHz to a 16-bit WAV file. CPU time rather than wall time, so other load on a
    /// shared machine does not decide the ratio (both renderers are single-threaded here).
    @Sendable static func renderSpeed(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let folder = context.dataFolder.appendingPathComponent("render")
        var files = try DenseGMSongs.write(count: 3, seconds: songSeconds, into: folder)
        files += sequenceFiles(in: context.repository)
        let wav = folder.appendingPathComponent("out.wav")

        var midihub = (audio: 0.0, cpu: 0.0), fluidsynth = (audio: 0.0, cpu: 0.0)
        for file in files {
            let ours = try ChildProcess.best(of: 2, renderers.midihub, renderers.midihubArguments(file, output: wav))
            midihub.audio += try WAVReader(url: wav).seconds
            midihub.cpu += ours.cpuSeconds
            let theirs = try ChildProcess.best(of: 2, renderers.fluidsynth, renderers.fluidsynthArguments(file, output: wav))
            fluidsynth.audio += try WAVReader(url: wav).seconds
            fluidsynth.cpu += theirs.cpuSeconds
        }
        return BenchmarkResult(
            title: "offline render, \(files.count) files (3 dense 16-channel GM songs of \(Int(songSeconds)) s + sequences/), \(String(format: "%.0f", midihub.audio)) s of audio",
            unit: "× RT",
            midihub: midihub.audio / midihub.cpu,
            anchorName: "fluidsynth",
            anchor: fluidsynth.audio / fluidsynth.cpu)
    }

    /// The `.mid` files in the repository's `sequences/` folder, if any.
    static func sequenceFiles(in repository: URL) -> [URL] {
        let folder = repository.appendingPathComponent("sequences")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".mid") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
