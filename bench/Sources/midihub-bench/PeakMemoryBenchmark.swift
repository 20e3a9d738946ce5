import Foundation

extension BenchmarkRow {
    /// Peak resident memory (max RSS) of `midihub render` and of FluidSynth rendering the
    /// same dense GM song to WAV (lower is better), as GNU `time -f %M` reports it. Not
    /// `wait4` on a child of this process: Linux counts a spawned child's resident set
    /// from before its `exec`, which is this (large) process's.
    @Sendable static func peakMemory(_ context: BenchmarkContext) throws -> BenchmarkResult {
        try peakMemory(context, instrument: .synth)
    }

    /// `peakMemory` with the SoundFont instrument playing FluidSynth's font (mapped, not read).
    @Sendable static func peakMemorySoundFont(_ context: BenchmarkContext) throws -> BenchmarkResult {
        try peakMemory(context, instrument: .soundfont)
    }

    private static func peakMemory(_ context: BenchmarkContext, instrument: Renderers.Instrument) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let folder = context.dataFolder.appendingPathComponent("memory")
        let file = try DenseGMSongs.write(count: 1, seconds: songSeconds, into: folder)[0]
        let wav = folder.appendingPathComponent("out.wav")
        let time = URL(fileURLWithPath: "/usr/bin/time")
        guard FileManager.default.isExecutableFile(atPath: time.path) else {
            throw BenchmarkError(description: "/usr/bin/time is missing (fix: install the Debian package 'time')")
        }
        func peakMegabytes(_ program: URL, _ arguments: [String]) throws -> Double {
            let report = folder.appendingPathComponent("time.txt")
            _ = try ChildProcess.run(time, ["-f", "%M", "-o", report.path, program.path] + arguments)
            let text = try String(contentsOf: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let kilobytes = Double(text.split(separator: "\n").last ?? "") else {
                throw BenchmarkError(description: "cannot read the peak memory from '\(text)'")
            }
            return kilobytes * 1024 / 1_000_000
        }
        let ours = try peakMegabytes(renderers.midihub, renderers.midihubArguments(file, output: wav, instrument: instrument))
        let theirs = try peakMegabytes(renderers.fluidsynth, renderers.fluidsynthArguments(file, output: wav))
        return BenchmarkResult(
            title: "peak memory while rendering a \(Int(songSeconds)) s dense GM song (max RSS), \(instrument.rawValue)",
            unit: "MB", midihub: ours, anchorName: "fluidsynth", anchor: theirs,
            lowerIsBetter: true)
    }
}
