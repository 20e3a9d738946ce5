import Control
import Foundation
import Testing

/// The CLI trusts only its own user's daemon: a socket in a folder another user owns, or one
/// that another user's program listens on (`SO_PEERCRED`), is refused in one line — the
/// `/tmp/midihub-UID` fallback is a name anyone could take first. (Runs as root, as CI does:
/// it acts as user 65534.)
@Suite struct UntrustedSocketTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-trust-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Starts a listener on `socket` as user 65534; returns once it listens.
    static func listenAsAnotherUser(at socket: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", """
            import os, socket, sys, time
            os.setgid(65534); os.setuid(65534)
            s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(4)
            print("ready", flush=True); time.sleep(60)
            """, socket]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let line = output.fileHandleForReading.availableData
        #expect(String(decoding: line, as: UTF8.self).hasPrefix("ready"))
        return process
    }

    @Test func aSocketAnotherUserListensOnOrWhoseFolderIsTheirsIsRefused() throws {
        try #require(getuid() == 0, "acting as another user needs root (CI runs the tests as root)")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(chown(folder, 65534, 65534) == 0 && chmod(folder, 0o700) == 0)
        let path = ControlSocketPath(directory: folder)
        let listener = try Self.listenAsAnotherUser(at: path.socket)
        defer { listener.terminate() }

        #expect(throws: ControlClientError.untrustedSocket(socket: path.socket, reason: "its folder belongs to uid 65534")) {
            try ControlClient(path: path)
        }
        #expect(chown(folder, 0, 0) == 0)
        #expect(throws: ControlClientError.untrustedSocket(socket: path.socket,
                                                           reason: "the program listening there runs as uid 65534")) {
            try ControlClient(path: path)
        }
        #expect(chmod(folder, 0o777) == 0)
        #expect(throws: ControlClientError.untrustedSocket(socket: path.socket, reason: "others may write to its folder \(folder)")) {
            try ControlClient(path: path)
        }
        #expect(ControlClientError.untrustedSocket(socket: "/tmp/midihub-0/control.sock", reason: "r").description
            == "refusing the control socket /tmp/midihub-0/control.sock: r (fix: stop that program, remove the folder of "
            + "/tmp/midihub-0/control.sock, then start 'midihub serve' (or set XDG_RUNTIME_DIR))")
    }
}
