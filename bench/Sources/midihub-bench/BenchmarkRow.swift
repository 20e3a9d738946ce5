import Foundation

/// One row of the table: a named measurement of midihub against an anchor measured
/// in the same run. To add a row, write a `static func` returning `BenchmarkResult`
/// in its own file (`extension BenchmarkRow`) and list it in `all`.
struct BenchmarkRow: Sendable {
    var name: String
    var run: @Sendable (BenchmarkContext) throws -> BenchmarkResult

    static let all: [BenchmarkRow] = [
        BenchmarkRow(name: "smf-read", run: smfRead),
        BenchmarkRow(name: "render-speed", run: renderSpeed),
        BenchmarkRow(name: "render-speed-soundfont", run: renderSpeedSoundFont),
    ] + ShapedGMSongs.Shape.allCases.flatMap { shape in
        [renderShape(shape, .synth), renderShape(shape, .soundfont)]
    } + [
        BenchmarkRow(name: "font-open", run: fontOpen),
        BenchmarkRow(name: "polyphony", run: polyphony),
        BenchmarkRow(name: "polyphony-soundfont", run: polyphonySoundFont),
        BenchmarkRow(name: "onset", run: onsetError),
        BenchmarkRow(name: "peak-memory", run: peakMemory),
        BenchmarkRow(name: "peak-memory-soundfont", run: peakMemorySoundFont),
        BenchmarkRow(name: "hub-route", run: hubRoute),
        BenchmarkRow(name: "graph-block", run: graphBlockCost),
        BenchmarkRow(name: "mapping-throughput", run: mappingThroughput),
        BenchmarkRow(name: "lv2-effect-vs-lv2apply", run: lv2EffectVersusLv2apply),
        BenchmarkRow(name: "lv2-render-jx10", run: lv2RenderJX10),
        BenchmarkRow(name: "lv2-graph-block-p999", run: lv2GraphBlock),
        BenchmarkRow(name: "lv2-isolated-graph-block-p999", run: isolatedGraphBlock),
        BenchmarkRow(name: "lv2-isolated-key-to-sound", run: isolatedKeyToSound),
        BenchmarkRow(name: "lv2-isolated-restart", run: isolatedRestart),
    ]
}

/// Where a row finds the repository and puts generated inputs.
struct BenchmarkContext: Sendable {
    var repository: URL
    var dataFolder: URL
    /// The VM run's work folder (`bench/run-vm`), which the `inVM` rows read.
    var vmResults: URL?
}

/// A row's numbers. The ratio is how many times better midihub is: midihub ÷ anchor,
/// or anchor ÷ midihub when lower is better ("exact" when midihub is 0 and the anchor not).
struct BenchmarkResult {
    var title: String
    var unit: String
    var midihub: Double
    var anchorName: String
    var anchor: Double
    var lowerIsBetter = false

    var markdown: String {
        let ratio: String
        if lowerIsBetter {
            ratio = midihub > 0 ? Self.times(anchor / midihub) : (anchor > 0 ? "exact" : "n/a")
        } else {
            ratio = anchor > 0 ? Self.times(midihub / anchor) : "n/a"
        }
        return "| \(title) | \(format(midihub)) \(unit) | \(anchorName): \(format(anchor)) \(unit) | \(ratio) |"
    }

    /// A ratio with one decimal, or three below 0.1 (so a small ratio does not read 0.0×).
    private static func times(_ ratio: Double) -> String {
        String(format: ratio < 0.095 ? "%.3f×" : "%.1f×", ratio)
    }

    private func format(_ value: Double) -> String {
        String(format: value >= 100 ? "%.0f" : "%.1f", value)
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
}

enum Timing {
    /// The fastest of `repetitions` runs of `body`, in seconds.
    static func best(of repetitions: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repetitions {
            let start = ContinuousClock.now
            try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return best
    }

    /// Runs `executable` with `arguments`, output discarded; throws unless it exits 0.
    static func runQuietly(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError(description: "\(executable.lastPathComponent) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus)")
        }
    }

    /// `name` on PATH, or an error naming the install fix.
    static func executable(_ name: String, package: String) throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw BenchmarkError(description: "\(name) is not on PATH (fix: install the Debian package '\(package)')")
    }
}
