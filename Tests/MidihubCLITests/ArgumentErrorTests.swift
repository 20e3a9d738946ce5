import ArgumentParser
import Control
import Testing
import TestSupport
@testable import MidihubCLI

/// Argument errors end as every other bad input does: one line on stderr,
/// `midihub: <problem> (fix: <what to do>)`, exit status 2. Help and --version go to stdout.
@Suite struct ArgumentErrorTests {
    /// Parses and runs `arguments` as `Midihub.main` does, and returns how it ended.
    static func ending(_ arguments: [String]) -> CommandEnding {
        do {
            var command = try Midihub.parseAsRoot(arguments)
            try command.run()
        } catch {
            return CommandEnding(error, arguments: arguments)
        }
        Issue.record("'\(arguments.joined(separator: " "))' ran; expected an error or help")
        return CommandEnding(text: nil, toStandardError: false, exitCode: 0)
    }

    @Test(arguments: [
        (["render", "--sample-rate", "abc", "x.mid", "-o", "x.wav"], "--sample-rate", "midihub help render"),
        (["render", "--sample-rate", "22050", "x.mid", "-o", "x.wav"], "--sample-rate 22050 is not supported", "use 44100"),
        (["render", "x.mid"], "-o", "midihub help render"),
        (["ports", "--bogus"], "--bogus", "midihub help ports"),
        (["frobnicate"], "frobnicate", "midihub --help"),
        (["send"], "<port>", "midihub help send"),
        (["nodes", "--types", "--patch", "p.yaml"], "--types lists the types", "drop --patch"),
        (["widgets", "set", "Filter", "loud"], "'loud' is not a number", "give a value such as 12"),
        (["widgets", "set", "Filter"], "<value>", "midihub help widgets"),
        (["serve", "--allow", "192.168.1/24"], "'192.168.1/24' is not a network", "like 192.168.1.0/24 or fd00::/8"),
        (["osc"], "say what to do", "midihub osc --list"),
    ])
    func argumentErrorsAreOneLineWithAFixAndExit2(arguments: [String], problem: String, fix: String) {
        let ending = Self.ending(arguments)
        let text = ending.text ?? ""
        #expect(ending.exitCode == 2)
        #expect(ending.toStandardError)
        #expect(!text.contains("\n"), "\(text)")
        #expect(text.hasPrefix("midihub: "), "\(text)")
        #expect(text.contains(problem), "\(text)")
        #expect(text.contains("(fix: ") && text.hasSuffix(")") && text.contains(fix), "\(text)")
    }

    @Test func versionAndHelpGoToStandardOutputWithStatus0() {
        let version = Self.ending(["--version"])
        #expect(version == CommandEnding(text: MidihubVersion.current, toStandardError: false, exitCode: 0))
        let help = Self.ending(["help", "play"])
        #expect(help.exitCode == 0 && !help.toStandardError)
        #expect(help.text?.contains("USAGE: midihub play") == true)
    }

    @Test func errorsTheCommandsKnowKeepTheirStatus() {
        let error = CLIError("no such file 'x.mid'", fix: "check the path", exitCode: CLIError.badInput)
        #expect(CommandEnding(error, arguments: []) ==
            CommandEnding(text: "midihub: no such file 'x.mid' (fix: check the path)", toStandardError: true, exitCode: 2))
        #expect(CommandEnding(ExitCode(130), arguments: []) == CommandEnding(text: nil, toStandardError: true, exitCode: 130))
    }

    /// A file that is not a SoundFont is bad input (2), named with its chunk and offset; so is
    /// a path that holds no file (2, as for any file a command reads). Both one line with the fix.
    @Test func soundfontRefusalsAreOneLineWithTheirStatus() {
        let readme = Repository.root.appendingPathComponent("README.md").path
        #expect(Self.ending(["soundfont", readme]) == CommandEnding(
            text: "midihub: README.md: RIFF at byte 0: not a SoundFont (no 'RIFF' … 'sfbk' header) (fix: give a .sf2 file)",
            toStandardError: true, exitCode: 2))
        let missing = Self.ending(["soundfont", "/nonexistent/font.sf2"])
        #expect(missing.exitCode == 2 && missing.toStandardError)
        #expect(missing.text == "midihub: no file '/nonexistent/font.sf2' (fix: check the path)")
        let folder = Self.ending(["soundfont", Repository.root.path])
        #expect(folder.exitCode == 2)
        #expect(folder.text == "midihub: '\(Repository.root.path)' is a directory, not a SoundFont file (fix: give the path of a SoundFont file)")
    }

    /// The same through the real binary: what the user sees in the terminal.
    @Test func theBinaryReportsArgumentErrorsInOneLine() throws {
        let bad = try MidihubBinary.run(["render", "--sample-rate", "abc", "x.mid", "-o", "x.wav"])
        #expect(bad.status == 2)
        #expect(bad.standardOutput == "")
        let lines = bad.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(bad.standardError)")
        #expect(lines.first?.hasPrefix("midihub: ") == true && lines.first?.contains("(fix: see 'midihub help render')") == true)

        let version = try MidihubBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == MidihubVersion.current + "\n")
    }

    /// A receiver timeout outside 1…86400 s is refused before the daemon touches anything.
    @Test(arguments: ["0", "-5", "nan", "100000"])
    func serveRefusesAReceiverTimeoutOutOfRange(_ seconds: String) throws {
        let bad = try MidihubBinary.run(["serve", "--no-audio", "--receiver-timeout=\(seconds)"])
        #expect(bad.status == 2)
        #expect(bad.standardOutput == "")
        let lines = bad.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(bad.standardError)")
        #expect(lines.first?.hasPrefix("midihub: --receiver-timeout ") == true)
        #expect(lines.first?.hasSuffix("is out of range (fix: give 1 to 86400 seconds)") == true, "\(bad.standardError)")
    }
}
