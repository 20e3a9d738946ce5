import TestSupport
import Foundation
import Testing
@testable import MidihubCLI

/// The `midihub …` command lines of the docs (the blocks marked
/// `<!-- tested-by: Tests/MidihubCLITests/DocCommandTests.swift -->`) and of every command's
/// `--help` examples: each parses with the real parser, and each that needs no ALSA
/// sequencer or sound card (info, convert, render, nodes, graph, rules, mappings, plugins, osc, widgets but
/// their set, press and release, help, --version)
/// runs with the real binary, in a scratch folder that sees the repository's `sequences/`
/// and `patches/`. Where a block shows output under a command, the binary prints exactly
/// that. The commands that need kernel ALSA run in the VM: Tests/Integration/vm/48-doc-commands.test.sh.
@Suite struct DocCommandTests {
    static let testFile = "Tests/MidihubCLITests/DocCommandTests.swift"
    /// Subcommands that work without /dev/snd (no sequencer client, no PCM).
    static let offline: Set<String> = [
        "info", "convert", "render", "nodes", "graph", "rules", "mappings", "widgets", "soundfont", "plugins", "osc", "help", "--version",
        "--help",
    ]
    /// `midihub widgets` subcommands that act on the running daemon's widgets.
    static let daemonWidgetGestures: Set<String> = ["set", "press", "release"]

    /// Whether the command line `words` (`midihub` first) runs without /dev/snd.
    static func isOffline(_ words: [String]) -> Bool {
        guard words.count > 1, offline.contains(words[1]) else { return false }
        return !(words[1] == "widgets" && words.count > 2 && daemonWidgetGestures.contains(words[2]))
    }

    /// A command line and the output lines the doc shows under it.
    struct Example: CustomStringConvertible {
        var source: String
        var command: String
        var output: [String]
        var description: String { "\(source): \(command)" }
    }

    static func docExamples() throws -> [Example] {
        try Repository.blocks(testedBy: testFile).flatMap { block in
            var examples: [Example] = []
            for line in block.lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("midihub ") {
                    examples.append(Example(source: block.description, command: HelpTests.commandPart(trimmed), output: []))
                } else if !trimmed.isEmpty, !trimmed.hasPrefix("#"), !examples.isEmpty {
                    examples[examples.count - 1].output.append(line)
                }
            }
            return examples
        }
    }

    static func helpExamples() -> [Example] {
        HelpTests.commands.flatMap { name, type in
            HelpTests.examples(in: Midihub.helpMessage(for: type, columns: 200))
                .map { Example(source: "midihub \(name) --help", command: $0, output: []) }
        }
    }

    @Test func theDocsHaveCommandExamples() throws {
        let sources = Set(try Self.docExamples().map { $0.source.split(separator: ":")[0] })
        #expect(sources.contains("README.md"))
        #expect(sources.contains("docs/sequence-format.md"))
    }

    @Test func everyDocCommandParses() throws {
        for example in try Self.docExamples() {
            let words = try ShellWords.split(example.command)
            #expect(throws: Never.self, "\(example)") { try Self.parse(Array(words.dropFirst())) }
        }
    }

    /// Parses as `Midihub.main` does; `--help` and `--version` count as parsed.
    static func parse(_ arguments: [String]) throws {
        do {
            _ = try Midihub.parseAsRoot(arguments)
        } catch where Midihub.exitCode(for: error) == .success {
            return
        }
    }

    @Test func offlineDocAndHelpCommandsRunAndPrintWhatTheDocShows() throws {
        let scratch = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let examples = try Self.docExamples() + Self.helpExamples()
        var ran = 0
        for example in examples {
            let words = try ShellWords.split(example.command)
            guard Self.isOffline(words) else { continue }
            let result = try MidihubBinary.run(Array(words.dropFirst()), in: scratch, environment: Self.noDaemon(scratch))
            ran += 1
            #expect(result.status == 0, "\(example): exit \(result.status): \(result.standardError)")
            if words[1] == "convert" {
                let written = try? Data(contentsOf: scratch.appendingPathComponent(words[3]))
                #expect(written?.isEmpty == false, "\(example): wrote no \(words[3])")
            } else {
                #expect(!result.standardOutput.isEmpty, "\(example): printed nothing")
            }
            if !example.output.isEmpty {
                #expect(result.standardOutput == example.output.joined(separator: "\n") + "\n",
                        "\(example): the doc shows other output")
            }
        }
        #expect(ran >= 10, "only \(ran) offline examples ran")
    }

    /// What the sequence-format doc's convert examples promise: `.song` → `.mid` gives the
    /// same sequence as the committed rendering, and any SMF → text → SMF loses nothing.
    @Test func convertingIsLossless() throws {
        let scratch = try Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        func info(_ path: String) throws -> String {
            let result = try MidihubBinary.run(["info", path, "--json"], in: scratch)
            #expect(result.status == 0, "\(result.standardError)")
            // The file name differs; everything else must not.
            return result.standardOutput.replacingOccurrences(of: path, with: "FILE")
        }
        for (from, to) in [("sequences/expression.mid", "expression.song"), ("expression.song", "back.mid"),
                           ("sequences/little-song.song", "little-song.mid")] {
            let result = try MidihubBinary.run(["convert", from, to], in: scratch)
            #expect(result.status == 0, "convert \(from) \(to): \(result.standardError)")
        }
        #expect(try info("back.mid") == info("sequences/expression.mid"))
        #expect(try info("little-song.mid") == info("sequences/little-song.mid"))
    }

    /// A folder with links to the repository's `sequences/` and `patches/`, where commands
    /// may write their output files.
    static func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["sequences", "patches", "fuzz"] {  // fuzz: the small font of docs/soundfont.md
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: Repository.root.appendingPathComponent(name))
        }
        return folder
    }

    /// A runtime folder of the scratch folder's own: no daemon's socket is there, so
    /// `nodes`, `graph` and `rules` work alone, whatever runs on the machine.
    static func noDaemon(_ scratch: URL) -> [String: String] {
        ["XDG_RUNTIME_DIR": scratch.appendingPathComponent("run").path, "XDG_STATE_HOME": scratch.appendingPathComponent("state").path]
    }
}
