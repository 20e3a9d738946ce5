import Foundation

/// Runs the benchmark rows named on the command line (all when none is) and prints
/// one Markdown table.
///
/// Arguments: `--repository DIR` (the repo root, for `sequences/`), `--data DIR`
/// (where generated inputs go), `--vm-results DIR` (the VM run's work folder: then the
/// default rows are the VM rows, `BenchmarkRow.inVM`), then row names. In the VM,
/// `--cc-frame-probe DEVICE OUT` measures what the `cc-frame` and `remote-frame` rows read
/// (`ControllerFrameProbe`, `RemoteFrameProbe`), and `--write-song SHAPE FOLDER` writes one of
/// `ShapedGMSongs` (`shape-SHAPE.mid`) for a player there (bench/vm/xruns.bench.sh).
@main
struct MidihubBench {
    static func main() {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--cc-frame-probe", arguments.count == 3 {  // in the VM: bench/vm/cc-frame.bench.sh
            do {
                let lines = try ControllerFrameProbe.run(device: arguments[1], periods: ControllerFrameProbe.periods)
                    + RemoteFrameProbe.run(device: arguments[1])
                try lines.map { $0 + "\n" }.joined().write(toFile: arguments[2], atomically: true, encoding: .utf8)
                return
            } catch {
                fail("the frame probes failed: \(error)")
            }
        }
        if arguments.first == "--write-song", arguments.count == 3 {  // in the VM: bench/vm/xruns.bench.sh
            guard let shape = ShapedGMSongs.Shape(rawValue: arguments[1]) else {
                fail("unknown song shape '\(arguments[1])' (fix: choose from \(ShapedGMSongs.Shape.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            do {
                print(try ShapedGMSongs.write(shape, into: URL(fileURLWithPath: arguments[2])).path)
                return
            } catch {
                fail("could not write the song: \(error)")
            }
        }
        let repository = URL(fileURLWithPath: take("--repository", from: &arguments) ?? FileManager.default.currentDirectoryPath)
        let data = URL(fileURLWithPath: take("--data", from: &arguments) ?? NSTemporaryDirectory() + "midihub-bench")
        let vmResults = take("--vm-results", from: &arguments).map { URL(fileURLWithPath: $0) }
        let context = BenchmarkContext(repository: repository, dataFolder: data, vmResults: vmResults)

        let known = BenchmarkRow.all + BenchmarkRow.inVM
        let unknown = arguments.filter { name in !known.contains { $0.name == name } }
        guard unknown.isEmpty else {
            let names = known.map(\.name).joined(separator: ", ")
            fail("unknown benchmark row '\(unknown[0])' (fix: choose from \(names))")
        }
        let defaults = vmResults == nil ? BenchmarkRow.all : BenchmarkRow.inVM
        let selected = arguments.isEmpty ? defaults : known.filter { arguments.contains($0.name) }

        print("| benchmark | midihub | anchor | ratio |")
        print("| --- | ---: | ---: | ---: |")
        for row in selected {
            do {
                print(try row.run(context).markdown)
            } catch {
                fail("benchmark \(row.name) failed: \(error)")
            }
        }
    }

    private static func take(_ option: String, from arguments: inout [String]) -> String? {
        guard let index = arguments.firstIndex(of: option), index + 1 < arguments.count else { return nil }
        let value = arguments[index + 1]
        arguments.removeSubrange(index...index + 1)
        return value
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("midihub-bench: \(message)\n".utf8))
        exit(1)
    }
}
