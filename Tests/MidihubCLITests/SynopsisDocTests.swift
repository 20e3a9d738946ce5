import TestSupport
import Foundation
import Testing
@testable import MidihubCLI

/// The synopsis blocks of the docs (marked `<!-- tested-by:
/// Tests/MidihubCLITests/SynopsisDocTests.swift … -->`) are the real usage lines: each
/// `midihub NAME …` line, with the indented lines under it joined on, is exactly what
/// `midihub NAME --help` prints after `USAGE:`.
@Suite struct SynopsisDocTests {
    static let testFile = "Tests/MidihubCLITests/SynopsisDocTests.swift"

    @Test func synopsisBlocksAreTheUsageLinesOfTheHelp() throws {
        let blocks = try Repository.blocks(testedBy: Self.testFile)
        #expect(!blocks.isEmpty, "no doc block is marked for this test")
        for block in blocks {
            let synopsis = Self.logicalLines(block.lines)
            #expect(!synopsis.isEmpty, "\(block): no midihub line")
            for line in synopsis {
                let name = line.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                guard let type = HelpTests.commands.first(where: { $0.name == name })?.type else {
                    Issue.record("\(block): '\(line)' names no midihub command")
                    continue
                }
                let help = Midihub.helpMessage(for: type, columns: 10_000)
                let usage = help.components(separatedBy: "\n").first { $0.hasPrefix("USAGE: ") }?.dropFirst("USAGE: ".count)
                #expect(usage.map(String.init) == line, "\(block): midihub \(name) --help's usage differs")
            }
        }
    }

    /// The block's lines, each indented line joined to the one before with one space.
    static func logicalLines(_ lines: [String]) -> [String] {
        var joined: [String] = []
        for line in lines where !line.trimmingCharacters(in: .whitespaces).isEmpty {
            if line.first == " ", !joined.isEmpty {
                joined[joined.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                joined.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        return joined
    }
}
