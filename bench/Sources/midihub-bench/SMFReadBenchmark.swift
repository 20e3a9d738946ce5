import Foundation
import MIDICore

extension BenchmarkRow {
    /// Reading SMF files (load + full parse into `MIDIFile`), MB/s, against
    /// `midicsv` converting the same files (output discarded), best of several runs.
    @Sendable static func smfRead(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let midicsv = try Timing.executable("midicsv", package: "midicsv")
        var files = try DenseSMFFiles.write(count: 8, into: context.dataFolder.appendingPathComponent("smf-read"))
        files += sequenceFiles(in: context.repository)
        let megabytes = try files.reduce(0.0) { total, url in
            total + Double(try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) / 1_000_000
        }

        var eventCount = 0
        let midihubSeconds = try Timing.best(of: 10) {
            eventCount = 0
            for url in files {
                let file = try MIDIFile(smf: [UInt8](Data(contentsOf: url)))
                eventCount += file.tracks.reduce(0) { $0 + $1.events.count }
            }
        }
        guard eventCount > 0 else { throw BenchmarkError(description: "the files hold no events") }
        let midicsvSeconds = try Timing.best(of: 3) {
            for url in files { try Timing.runQuietly(midicsv, [url.path, "/dev/null"]) }
        }
        return BenchmarkResult(
            title: "read SMF (\(files.count) files, \(String(format: "%.1f", megabytes)) MB, \(eventCount) events)",
            unit: "MB/s",
            midihub: megabytes / midihubSeconds,
            anchorName: "midicsv",
            anchor: megabytes / midicsvSeconds)
    }
}
