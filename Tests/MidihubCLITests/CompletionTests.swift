import Foundation
import Testing
@testable import MidihubCLI

/// The shell completion scripts (`midihub --generate-completion-script`): port and node
/// arguments call back into midihub for their candidates (NameCompletion).
@Suite struct CompletionTests {
    @Test(arguments: ["bash", "zsh", "fish"])
    func portAndNodeArgumentsAskMidihub(_ shell: String) throws {
        let result = try MidihubBinary.run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for argument in ["connect -- positional@0", "connect -- positional@1", "send -- positional@0",
                         "learn -- positional@0", "play -- --port", "record -- --node", "synth -- --connect"] {
            #expect(result.standardOutput.contains("---completion \(argument)"), "\(shell): \(argument) completes no names")
        }
    }

    /// Without a daemon there is no node to offer: the shell gets nothing, and no error.
    @Test func nodesWithoutADaemonCompleteToNothing() throws {
        let scratch = try DocCommandTests.scratchFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try MidihubBinary.run(["---completion", "learn", "--", "positional@0", "2", "0", "midihub", "learn", ""],
                                           in: scratch, environment: DocCommandTests.noDaemon(scratch).merging(["SAP_SHELL": "bash"]) { $1 })
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }

    @Test func candidatesStartWithTheTypedPrefixIgnoringCaseEachOnce() {
        let names = ["20:0", "Virtual Raw MIDI 1-0", "VirMIDI 1-0", "Midi Through", "virtual raw midi 1-0", "20:0"]
        #expect(NameCompletion.matching("vir", in: names) == ["Virtual Raw MIDI 1-0", "VirMIDI 1-0", "virtual raw midi 1-0"])
        #expect(NameCompletion.matching("", in: names) == ["20:0", "Virtual Raw MIDI 1-0", "VirMIDI 1-0", "Midi Through", "virtual raw midi 1-0"])
        #expect(NameCompletion.matching("2", in: names) == ["20:0"])
    }
}
