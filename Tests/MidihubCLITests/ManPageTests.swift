import ArgumentParser
import Foundation
import TestSupport
import Testing
@testable import MidihubCLI

/// The man pages that swift-argument-parser's generate-manual plugin writes from the
/// commands' help (`swift package plugin generate-manual --multi-page`; scripts/package
/// installs them): every subcommand the help lists has a page, and each page names the
/// command's abstract, options and arguments as its `--help` does. The pages are read from
/// `$MIDIHUB_MAN_PAGES` (scripts/test unit generates them and sets it), else from the
/// plugin's output folder; missing pages fail the test.
@Suite struct ManPageTests {
    static let folder: URL = {
        if let path = ProcessInfo.processInfo.environment["MIDIHUB_MAN_PAGES"] { return URL(fileURLWithPath: path) }
        return Repository.root.appendingPathComponent(".build/plugins/GenerateManual/outputs/midihub")
    }()

    static let fix = "run 'swift package plugin generate-manual --multi-page --configuration debug' (scripts/test unit does)"

    /// `midihub` and every subcommand the help lists, nested ones too: (page name, command).
    static func commands(_ type: any ParsableCommand.Type = Midihub.self, page: String = "midihub")
        -> [(page: String, type: any ParsableCommand.Type)]
    {
        var found = [(page, type)]
        for name in subcommandNames(inHelpOf: type) {
            if let sub = type.configuration.subcommands.first(where: { $0.configuration.commandName == name }) {
                found += commands(sub, page: "\(page).\(name)")
            } else {
                found.append(("\(page).\(name)", type))  // help lists a command the type lacks: its page is checked alone
            }
        }
        return found
    }

    /// The names under "SUBCOMMANDS:" in a command's help.
    static func subcommandNames(inHelpOf type: any ParsableCommand.Type) -> [String] {
        let lines = Midihub.helpMessage(for: type, columns: 200).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
            return line.split(separator: " ").first.map(String.init)
        }
    }

    static func page(_ name: String) throws -> String {
        let url = folder.appendingPathComponent("\(name).1")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw PageMissing(description: "no man page \(url.path) (fix: \(fix))")
        }
        return text
    }

    struct PageMissing: Error, CustomStringConvertible { var description: String }

    @Test func everySubcommandInTheHelpHasAPage() throws {
        let commands = Self.commands()
        #expect(commands.count > 20, "the root's help lists only \(commands.count - 1) subcommands")
        for (name, _) in commands {
            #expect(throws: Never.self) { _ = try Self.page(name) }
        }
    }

    /// The page's name line is the help's abstract (generate-manual writes ASCII only), and
    /// each option and argument of the help appears in the page.
    @Test(arguments: commands().map(\.page))
    func thePageSaysWhatTheHelpSays(_ name: String) throws {
        let type = try #require(Self.commands().first { $0.page == name }?.type)
        let page = try Self.page(name)
        let abstract = String(type.configuration.abstract.filter(\.isASCII)).replacingOccurrences(of: "\"", with: "\\(dq")
        #expect(page.contains(".Nd \"\(abstract)\"") || abstract.isEmpty, "\(name).1's NAME is not the help's '\(abstract)'")
        let help = Midihub.helpMessage(for: type, columns: 200)
        for option in Self.options(inHelp: help) {
            let inPage = option.hasPrefix("--") ? " \(option.dropFirst())" : "Fl \(option.dropFirst())"
            #expect(page.contains(inPage + " ") || page.contains(inPage + "\n"), "\(name).1 lacks \(option), which --help shows")
        }
        for argument in Self.arguments(inHelp: help) {
            #expect(page.contains("Ar \(argument)"), "\(name).1 lacks the argument <\(argument)>, which --help shows")
        }
    }

    /// `-o` and `--output` of each option line (`  -o, --output <output>   The WAV…`).
    static func options(inHelp help: String) -> [String] {
        help.components(separatedBy: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            let names = line.dropFirst(2).components(separatedBy: "  ")[0]
            return names.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init).filter { $0.hasPrefix("-") }
        }
    }

    /// The names under "ARGUMENTS:" (`  <file>   The sequence…`).
    static func arguments(inHelp help: String) -> [String] {
        let lines = help.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "ARGUMENTS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }.compactMap { line in
            guard line.hasPrefix("  <"), let end = line.firstIndex(of: ">") else { return nil }
            return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
        }
    }
}
