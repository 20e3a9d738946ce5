import Foundation
import Testing
import MIDICore

/// The event list midihub reads equals what `midicsv` prints for the same file.
@Suite struct MidicsvCrossCheckTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func requireMidicsv() throws -> URL {
        guard let midicsv = Midicsv.executable else {
            Issue.record("midicsv is not on PATH (fix: run the project's install script, which installs the Debian package 'midicsv')")
            throw CancellationError()
        }
        return midicsv
    }

    private func expectSameRecords(_ url: URL, midicsv: URL) throws {
        let file = try MIDIFile(smf: [UInt8](Data(contentsOf: url)))
        let ours = Midicsv.records(of: file)
        let theirs = try Midicsv.records(of: url, using: midicsv)
        #expect(ours.count == theirs.count, "\(url.lastPathComponent): \(ours.count) records vs midicsv's \(theirs.count)")
        if let index = ours.indices.first(where: { $0 < theirs.count && ours[$0] != theirs[$0] }) {
            Issue.record("\(url.lastPathComponent) record \(index): midihub '\(ours[index])' vs midicsv '\(theirs[index])'")
        }
    }

    @Test func generatedFilesMatchMidicsv() throws {
        let midicsv = try requireMidicsv()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-crosscheck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for seed in 0..<12 as Range<UInt64> {
            let url = folder.appendingPathComponent("generated-\(seed).mid")
            let file = GeneratedFiles.file(seed: seed, format: seed % 3 == 0 ? 0 : 1, tracks: 4, eventsPerTrack: 300)
            try Data(file.smfBytes()).write(to: url)
            try expectSameRecords(url, midicsv: midicsv)
        }
    }

    @Test func seedCorpusAndSequencesMatchMidicsv() throws {
        let midicsv = try requireMidicsv()
        let folders = ["fuzz/corpus/smf", "sequences"].map { Self.repositoryRoot.appendingPathComponent($0) }
        var checked = 0
        for folder in folders {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".mid") {
                try expectSameRecords(folder.appendingPathComponent(name), midicsv: midicsv)
                checked += 1
            }
        }
        #expect(checked >= 4, "expected the seed .mid files under fuzz/corpus/smf")
    }
}
