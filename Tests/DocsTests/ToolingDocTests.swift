import TestSupport
import Foundation
import Testing

/// The developer commands of docs/testing.md and docs/benchmarks.md: each names a script,
/// an option, a test or a benchmark row that exists and does what the comment says.
/// (The VM runs and benchmarks themselves take minutes: the vm tier runs vm-run; the
/// benchmarks are run by hand, never in CI.)
@Suite struct ToolingDocTests {
    static let testFile = "Tests/DocsTests/ToolingDocTests.swift"

    static func lines(of document: String) throws -> [String] {
        try Repository.blocks(in: document).filter { $0.isTested(by: testFile) }.flatMap(\.lines)
            .map { $0.components(separatedBy: "#")[0].trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = Repository.root.appendingPathComponent(executable)
        process.arguments = arguments
        process.currentDirectoryURL = Repository.root
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // ends when the script exits
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `Tests/Integration/vm-run WORD...` runs the tests whose file name contains a word:
    /// `vm-run --list` shows which, without a VM.
    @Test func vmRunSelectsTheTestsTheDocSays() throws {
        let all = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent("Tests/Integration/vm").path)
            .filter { $0.hasSuffix(".test.sh") }.sorted()
        let commands = try Self.lines(of: "docs/testing.md").filter { $0.contains("Tests/Integration/vm-run") }
        #expect(commands.count == 4)
        for command in commands {
            let words = command.components(separatedBy: "Tests/Integration/vm-run")[1].split(separator: " ").map(String.init)
            let listed = try Self.run("Tests/Integration/vm-run", ["--list"] + words)
            #expect(listed.status == 0, "\(command)")
            let expected = words.isEmpty ? all : all.filter { name in words.contains { name.contains($0) } }
            #expect(listed.output.split(separator: "\n").map(String.init) == expected, "\(command)")
            if command.hasPrefix("MIDIHUB=") {
                #expect(try String(contentsOf: Repository.root.appendingPathComponent("Tests/Integration/vm-run"),
                                   encoding: .utf8).contains("MIDIHUB=$(readlink -f \"${MIDIHUB:-"))
            }
        }
        let scriptsTest = try String(contentsOf: Repository.root.appendingPathComponent("scripts/test"), encoding: .utf8)
        #expect(try Self.lines(of: "docs/testing.md").contains("swift build --product midihub"))
        #expect(scriptsTest.contains("swift build --product midihub"), "the vm tier builds the binary the doc names")
    }

    /// The VM tests that may run twice (`# retry: WHY`) are exactly the ones docs/testing.md
    /// names, each with a reason, and inside.sh reads that line.
    @Test func theTestsThatMayRunTwiceAreTheOnesTheDocNames() throws {
        let folder = Repository.root.appendingPathComponent("Tests/Integration/vm")
        let retried = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".test.sh") }
            .filter { name in
                let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
                return text.split(separator: "\n").contains { $0.hasPrefix("# retry: ") && $0.count > "# retry: ".count }
            }
            .map { String($0.dropLast(".test.sh".count)) }.sorted()
        #expect(retried == ["45-serve-jack", "74-serve-clock-follow", "78-serve-output-drift"])
        let doc = try String(contentsOf: Repository.root.appendingPathComponent("docs/testing.md"), encoding: .utf8)
        let paragraph = try #require(doc.components(separatedBy: "\n\n").first { $0.contains("`# retry: WHY`") })
        let named = retried.filter { paragraph.contains("`\($0)`") }
        #expect(named == retried, "docs/testing.md names the tests that may run twice")
        let inside = try String(contentsOf: Repository.root.appendingPathComponent("Tests/Integration/inside.sh"), encoding: .utf8)
        #expect(inside.contains("s/^# retry: \\(.*\\)$/\\1/p"), "inside.sh reads the retry line")
    }

    /// The doc's "Writing a test" example is the VM test 05-doc-example, verbatim; its
    /// debugging commands are what that test runs inside the VM (with the binary under test).
    @Test func theExampleTestIsARealTest() throws {
        let test = try String(contentsOf: Repository.root.appendingPathComponent("Tests/Integration/vm/05-doc-example.test.sh"),
                              encoding: .utf8)
        let blocks = try Repository.blocks(in: "docs/testing.md").filter {
            $0.isTested(by: "Tests/Integration/vm/05-doc-example.test.sh")
        }
        #expect(blocks.count == 2)
        guard blocks.count == 2 else { return }
        #expect(test.contains(blocks[0].text), "docs/testing.md's example differs from 05-doc-example.test.sh")
        let debugging = blocks[1].lines
        #expect(debugging.first?.hasPrefix("vng --run /boot/vmlinuz-* --disable-kvm --memory 1G --rwdir") == true)
        let vmRun = try String(contentsOf: Repository.root.appendingPathComponent("Tests/Integration/vm-run"), encoding: .utf8)
        #expect(vmRun.contains("--run \"$KERNEL\" --disable-kvm --memory 1G --rwdir"), "vm-run boots as the doc says")
        let inside = try #require(debugging.dropFirst().first)
        let asRun = "{ " + inside.replacingOccurrences(of: ".build/debug/midihub", with: "\"$MIDIHUB\"") + "; }"
        #expect(test.contains(asRun), "05-doc-example.test.sh runs '\(inside)'")
    }

    /// `bench/run ROW` and `bench/run-vm ROW` name rows that exist; `bench/run-soak` runs the
    /// soak's VM script; the settings are read by the script each command runs.
    @Test func benchmarkCommandsNameRealRowsAndSettings() throws {
        let sources = try FileManager.default.contentsOfDirectory(
            atPath: Repository.root.appendingPathComponent("bench/Sources/midihub-bench").path)
            .map { try String(contentsOf: Repository.root.appendingPathComponent("bench/Sources/midihub-bench/\($0)"),
                              encoding: .utf8) }.joined()
        let commands = try Self.lines(of: "docs/benchmarks.md")
        #expect(commands.count == 8)
        for command in commands {
            var words = command.split(separator: " ").map(String.init)
            let script = try #require(words.first { !$0.contains("=") })
            #expect(["bench/run", "bench/run-vm", "bench/run-soak"].contains(script), "\(command)")
            #expect(FileManager.default.isExecutableFile(atPath: Repository.root.appendingPathComponent(script).path))
            let text = try Repository.text(script)
            while let setting = words.first, setting.contains("=") {
                let name = String(setting.split(separator: "=")[0])
                #expect(text.contains("${\(name):-"), "\(script) reads \(name)")
                words.removeFirst()
            }
            if script == "bench/run-soak" {
                #expect(text.contains("VM_SUITE=\"$root/bench/soak\""), "bench/run-soak runs bench/soak/*.bench.sh")
                #expect(FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent("bench/soak/soak.bench.sh").path))
                #expect(words.count == 1, "\(command): bench/run-soak takes no rows")
                continue
            }
            for row in words.dropFirst() {
                #expect(sources.contains("BenchmarkRow(name: \"\(row)\""), "\(command): no benchmark row '\(row)'")
            }
        }
    }

    /// docs/fuzzing.md's longer run builds as `fuzz/run` does and runs a target that exists
    /// on its committed seeds; the crash replay names a real target and the setting
    /// `fuzz/run` uses. (`fuzz/run` itself is the fuzz tier of scripts/test.)
    @Test func fuzzingCommandsBuildAndRunRealTargets() throws {
        let run = try Repository.text("fuzz/run")
        let package = try Repository.text("fuzz/Package.swift")
        let commands = try Repository.blocks(in: "docs/fuzzing.md").filter { $0.isTested(by: Self.testFile) }
            .map { $0.text.replacingOccurrences(of: "\\\n    ", with: "") }.joined()
            .split(separator: "\n").map(String.init)
        #expect(commands.count == 4)
        let build = try #require(commands.first { $0.hasPrefix("swift build") })
        let asRun = build.replacingOccurrences(of: "--package-path fuzz --scratch-path .build-fuzz",
                                               with: "--package-path \"$root/fuzz\" --scratch-path \"$scratch\"")
        #expect(run.replacingOccurrences(of: "\\\n    ", with: "").contains(asRun), "fuzz/run builds with '\(build)'")
        #expect(run.contains("export SWIFT_BACKTRACE=enable=no"))
        for command in commands where command.contains(".build-fuzz/release/") {
            let target = command.components(separatedBy: ".build-fuzz/release/")[1].prefix { $0 != " " }
            #expect(package.contains("fuzzTarget(\"\(target)\""), "\(command): no fuzz target '\(target)'")
            for folder in command.split(separator: " ") where folder.hasPrefix("fuzz/corpus/") {
                #expect(FileManager.default.fileExists(atPath: Repository.root.appendingPathComponent(String(folder)).path),
                        "\(command): no seed folder \(folder)")
            }
        }
    }
}
