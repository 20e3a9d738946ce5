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
        try renderSpeed(context, instrument: .synth)
    }

    /// `renderSpeed` with the SoundFont instrument playing FluidSynth's font.
    @Sendable static func renderSpeedSoundFont(_ context: BenchmarkContext) throws -> BenchmarkResult {
        try renderSpeed(context, instrument: .soundfont)
    }

    private static func renderSpeed(_ context: BenchmarkContext, instrument: Renderers.Instrument) throws -> BenchmarkResult {
        let folder = context.dataFolder.appendingPathComponent("render")
        let files = try DenseGMSongs.write(count: 3, seconds: songSeconds, into: folder) + sequenceFiles(in: context.repository)
        return try renderRatio(files, instrument: instrument, context: context,
                               title: "\(files.count) files (3 dense 16-channel GM songs of \(Int(songSeconds)) s + sequences/)")
    }

    /// Render speed of one song shape (`ShapedGMSongs`) through `instrument`.
    static func renderShape(_ shape: ShapedGMSongs.Shape, _ instrument: Renderers.Instrument) -> BenchmarkRow {
        BenchmarkRow(name: "render-\(shape.rawValue)\(instrument == .soundfont ? "-soundfont" : "")") { context in
            let file = try ShapedGMSongs.write(shape, into: context.dataFolder.appendingPathComponent("shapes"))
            return try renderRatio([file], instrument: instrument, context: context, title: shape.summary)
        }
    }

    /// × real time of `midihub render` through `instrument` and of FluidSynth over `files`
    /// (CPU seconds of whole processes, best of 2 per file, summed). Both rates are over the
    /// audio midihub writes (each song and its tail until the sound has died away in 16
    /// bits): FluidSynth writes on until its last voice ends, up to 14 s longer for a 40 s
    /// song, zeros in 16 bits, and counting that as its audio would compare renders of
    /// different lengths. So the ratio is that of the two CPU times for the same files; the
    /// title gives both lengths.
    private static func renderRatio(_ files: [URL], instrument: Renderers.Instrument, context: BenchmarkContext,
                                    title: String) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let wav = context.dataFolder.appendingPathComponent("render-out.wav")
        var midihub = (audio: 0.0, cpu: 0.0), fluidsynth = (audio: 0.0, cpu: 0.0)
        for file in files {
            let ours = try ChildProcess.best(of: 2, renderers.midihub, renderers.midihubArguments(file, output: wav, instrument: instrument))
            midihub.audio += try WAVReader(url: wav).seconds
            midihub.cpu += ours.cpuSeconds
            let theirs = try ChildProcess.best(of: 2, renderers.fluidsynth, renderers.fluidsynthArguments(file, output: wav))
            fluidsynth.audio += try WAVReader(url: wav).seconds
            fluidsynth.cpu += theirs.cpuSeconds
        }
        let lengths = String(format: "%.0f s of audio; fluidsynth writes %.0f s", midihub.audio, fluidsynth.audio)
        return BenchmarkResult(
            title: "offline render, \(instrument.rawValue), \(title), \(lengths)",
            unit: "× RT",
            midihub: midihub.audio / midihub.cpu,
            anchorName: "fluidsynth",
            anchor: midihub.audio / fluidsynth.cpu)
    }

    /// The `.mid` files in the repository's `sequences/` folder, if any.
    static func sequenceFiles(in repository: URL) -> [URL] {
        let folder = repository.appendingPathComponent("sequences")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".mid") }.sorted().map { folder.appendingPathComponent($0) }
    }
}
