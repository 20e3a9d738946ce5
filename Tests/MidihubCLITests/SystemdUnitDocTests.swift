import TestSupport
import Foundation
import Testing

/// docs/daemon.md's install lines for the systemd user unit, run as written in a scratch
/// home: the copying lines run, and the installed unit — with the real binary at
/// `~/.local/bin/midihub`, where its `ExecStart` expects it — passes `systemd-analyze
/// --user verify`. The `systemctl --user` lines need a user's systemd manager, which the
/// test machines (a container, the VM) have not: they are left to the reader.
@Suite struct SystemdUnitDocTests {
    @Test func systemdInstallLinesGiveAUnitSystemdAccepts() throws {
        let blocks = try Repository.blocks(testedBy: "Tests/MidihubCLITests/SystemdUnitDocTests.swift")
        try #require(blocks.count == 1, "docs/daemon.md's install block is not marked for this test")
        let lines = blocks[0].lines.filter { !$0.isEmpty }
        #expect(lines.filter { $0.hasPrefix("systemctl --user ") }.count == 2)
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-home-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["HOME": home.path, "XDG_RUNTIME_DIR": home.path]

        let copy = try ShellScript.run(lines.filter { !$0.hasPrefix("systemctl ") }.joined(separator: "\n"),
                                       in: Repository.root, environment: environment)
        #expect(copy.status == 0, "\(blocks[0]): \(copy.output)")
        let unit = home.appendingPathComponent(".config/systemd/user/midihub.service")
        #expect(try String(contentsOf: unit, encoding: .utf8) == Repository.text("contrib/systemd/midihub.service"))

        let bin = home.appendingPathComponent(".local/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: bin.appendingPathComponent("midihub").path,
                                                   withDestinationPath: MidihubBinary.path)
        let verify = try ShellScript.run("systemd-analyze --user verify \"$HOME/.config/systemd/user/midihub.service\"",
                                         in: home, environment: environment)
        #expect(verify.status == 0 && verify.output.isEmpty, "systemd-analyze --user verify: \(verify.output)")
    }
}
