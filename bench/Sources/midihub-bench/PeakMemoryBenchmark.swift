import Foundation

extension BenchmarkRow {
    /// Peak resident memory (max RSS from `wait4`) of `midihub render` and of FluidSynth
    /// rendering the same dense GM song to WAV (lower is better).
    @Sendable static func peakMemory(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let folder = context.dataFolder.appendingPathComponent("memory")
        let file = try DenseGMSongs.write(count: 1, seconds: songSeconds, into: folder)[0]
        let wav = folder.appendingPathComponent("out.wav")
        let ours = try ChildProcess.run(renderers.midihub, renderers.midihubArguments(file, output: wav))
        let theirs = try ChildProcess.run(renderers.fluidsynth, renderers.fluidsynthArguments(file, output: wav))
        return BenchmarkResult(
            title: "peak memory while rendering a \(Int(songSeconds)) s dense GM song (max RSS)",
            unit: "MB", midihub: ours.peakMegabytes, anchorName: "fluidsynth", anchor: theirs.peakMegabytes,
            lowerIsBetter: true)
    }
}
