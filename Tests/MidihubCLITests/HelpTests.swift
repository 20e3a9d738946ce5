import ALSA
import MIDICore
import Control
import ArgumentParser
import Foundation
import Testing
@testable import MidihubCLI

/// The help of every command, compared with the committed text in `Help/NAME.txt`, as
/// swift-argument-parser tests its own examples. A change to an option or its help shows
/// up here; after a deliberate change, regenerate with
/// `MIDIHUB_UPDATE_HELP=1 swift test --filter HelpTests` and review the diff.
@Suite struct HelpTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")

    /// The root and every subcommand, with the name of its golden file.
    static let commands: [(name: String, type: any ParsableCommand.Type)] =
        [("midihub", Midihub.self)] + Midihub.configuration.subcommands.filter { $0.configuration.shouldDisplay }
            .map { ($0.configuration.commandName!, $0) }

    @Test(arguments: commands.map(\.name))
    func helpMatchesTheGoldenText(_ name: String) throws {
        let type = try #require(Self.commands.first { $0.name == name }?.type)
        let help = Midihub.helpMessage(for: type, columns: 80) + "\n"
        let golden = Self.folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["MIDIHUB_UPDATE_HELP"] == "1" {
            try help.write(to: golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(help == expected, "midihub \(name) --help changed; see HelpTests to regenerate Help/\(name).txt")
    }

    /// The real binary prints the same help: `midihub help render` and `midihub render --help`.
    @Test func theBinaryPrintsTheGoldenHelp() throws {
        let expected = try String(contentsOf: Self.folder.appendingPathComponent("render.txt"), encoding: .utf8)
        for arguments in [["help", "render"], ["render", "--help"]] {
            let result = try MidihubBinary.run(arguments, environment: ["COLUMNS": "80"])
            #expect(result.status == 0)
            #expect(result.standardError == "")
            #expect(result.standardOutput == expected, "midihub \(arguments.joined(separator: " "))")
        }
    }

    /// Every `midihub …` line under "Examples:" in a command's help parses with the real
    /// parser (the offline ones also run: DocCommandTests).
    @Test(arguments: commands.map(\.name))
    func helpExamplesParse(_ name: String) throws {
        let type = try #require(Self.commands.first { $0.name == name }?.type)
        let examples = Self.examples(in: Midihub.helpMessage(for: type, columns: 200))
        #expect(!examples.isEmpty, "midihub \(name) --help has no Examples: section")
        for example in examples {
            let words = try ShellWords.split(example)
            #expect(words.first == "midihub", "\(example)")
            #expect(throws: Never.self, "\(example)") { try DocCommandTests.parse(Array(words.dropFirst())) }
        }
    }

    /// The command lines of the "Examples:" section, without comments or a pipe's right side.
    static func examples(in help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == "Examples:" }) else {
            return []
        }
        return lines[(start + 1)...]
            .prefix { $0.hasPrefix("  ") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("midihub ") }
            .map(commandPart)
    }

    /// The `midihub …` part of a shell line: before a pipe or a comment.
    static func commandPart(_ line: String) -> String {
        var command = line
        for separator in [" | ", " # "] {
            if let range = command.range(of: separator) { command = String(command[..<range.lowerBound]) }
        }
        return command.trimmingCharacters(in: .whitespaces)
    }
}

/// The JSON that `--help` shows is what the commands print.
@Suite struct HelpJSONExampleTests {
    /// The lines of the help's JSON example (from the `{` line to the first blank line),
    /// joined without their wrapping indentation.
    static func jsonExample(in help: String) throws -> String {
        let lines = help.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("  {") })
        return lines[start...].prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined()
    }

    @Test func infoShowsWhatInfoPrints() throws {
        let shown = try Self.jsonExample(in: Midihub.helpMessage(for: InfoCommand.self, columns: 80))
        let printed = try MidihubBinary.run(["info", "sequences/c-major-scale.mid", "--json"])
        #expect(printed.status == 0)
        #expect(printed.standardOutput == shown + "\n")
    }

    @Test func monitorShowsWhatMonitorPrints() throws {
        let shown = try Self.jsonExample(in: Midihub.helpMessage(for: MonitorCommand.self, columns: 80))
        let event = SeqEvent.message(.noteOn(channel: 0, note: 60, velocity: 100),
                                     source: SeqAddress(client: 20, port: 0), time: .realTime(QueueTime(sinceOrigin: 1.234)))
        #expect(EventFormatter.json(event, seconds: 1.234) == shown)
    }

    /// The keyboard's line itself is checked in the VM, against a real snd-virmidi port
    /// (Tests/Integration/vm/48-doc-commands.test.sh); here, that it is one line of the array.
    @Test func portsShowsALineOfThePortsArray() throws {
        let shown = try Self.jsonExample(in: Midihub.helpMessage(for: PortsCommand.self, columns: 80))
        #expect(shown.hasPrefix("{\"address\":\"20:0\"") && shown.hasSuffix("},"))
        let object = try JSONDecoder().decode(PortSummary.self, from: Data(shown.dropLast().utf8))
        #expect(try jsonLines([object]) == "[\n  " + shown.dropLast() + "\n]")
    }
}
