import Foundation
import Testing
@testable import MidihubCLI

/// `midihub widgets`: the listing stays what it was (the default subcommand), and a gesture
/// on a widget asks the running daemon, failing in one line without one.
@Suite struct WidgetsCommandTests {
    @Test func theListingIsTheDefaultSubcommand() throws {
        let scratch = try DocCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let environment = DocCommandTests.noDaemon(scratch)
        let patch = "patches/controller-knobs.yaml"
        let implicit = try MidihubBinary.run(["widgets", "--patch", patch, "--json"], in: scratch, environment: environment)
        let explicit = try MidihubBinary.run(["widgets", "list", "--patch", patch, "--json"], in: scratch, environment: environment)
        #expect(implicit.status == 0, "\(implicit.standardError)")
        #expect(implicit.standardOutput.contains(#""target":"synth.brightness""#))
        #expect(implicit.standardOutput == explicit.standardOutput)
    }

    @Test(arguments: [(["widgets", "set", "Filter", "12"], "moving a widget"), (["widgets", "press", "Panic"], "pressing a widget"),
                      (["widgets", "release", "Panic"], "releasing a widget")])
    func aGestureWithoutADaemonFailsInOneLine(arguments: [String], needing: String) throws {
        let scratch = try DocCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try MidihubBinary.run(arguments, in: scratch, environment: DocCommandTests.noDaemon(scratch))
        #expect(result.status == 1)
        #expect(result.standardError == "midihub: \(needing) needs the running daemon (fix: start it with 'midihub serve')\n")
    }
}
