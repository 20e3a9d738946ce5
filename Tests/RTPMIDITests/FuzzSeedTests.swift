import Foundation
import RTPMIDI
import Testing

/// The fuzz target's hand-made seeds are packets that decode, so its runs start from
/// every part of the format.
@Suite struct FuzzSeedTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("fuzz/corpus/rtpmidi")

    @Test func everySeedDecodes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path).sorted()
        #expect(names.count >= 7)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: Self.folder.appendingPathComponent(name)))
            #expect(throws: Never.self, "\(name)") { try RTPMIDIPacket(decoding: bytes) }
        }
    }
}
