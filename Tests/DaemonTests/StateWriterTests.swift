import Foundation
import Hub
import Testing
@testable import Daemon

@Suite struct StateWriterTests {
    private func scratchPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("midihub-state-\(UUID().uuidString)/state.json").path
    }

    @Test func aBurstOfSubmitsEndsWithTheNewestStateOnDisk() throws {
        let path = scratchPath()
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let writer = StateWriter(store: StateStore(path: path), log: DaemonLog())
        for tempo in stride(from: 60.0, through: 260, by: 1) {
            var state = HubState.defaults
            state.tempo = tempo
            writer.submit(state)
        }
        writer.flush()
        #expect(try StateStore(path: path).load()?.tempo == 260)
    }

    @Test func aFailedWriteIsLoggedAndTheNextSubmitWritesAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A file where the state's folder should be: the save cannot create the folder.
        FileManager.default.createFile(atPath: folder, contents: Data())
        let lines = CollectedLines()
        let log = DaemonLog(writer: { lines.append($0) })
        let writer = StateWriter(store: StateStore(path: folder + "/state.json"), log: log)
        writer.submit(.defaults)
        writer.flush()
        log.flush()
        #expect(lines.all.contains { $0.contains("warning: cannot save the state") }, "\(lines.all)")
        try FileManager.default.removeItem(atPath: folder)
        var state = HubState.defaults
        state.tempo = 99
        writer.submit(state)
        writer.flush()
        #expect(try StateStore(path: folder + "/state.json").load()?.tempo == 99)
    }
}

/// Log lines collected from any thread.
private final class CollectedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }

    var all: [String] { lock.withLock { lines } }
}
