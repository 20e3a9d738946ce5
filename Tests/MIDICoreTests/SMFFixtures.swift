/// Hand-built SMF byte fixtures.
enum SMFFixtures {
    static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func header(format: UInt16 = 1, tracks: UInt16, division: UInt16 = 480) -> [UInt8] {
        Array("MThd".utf8) + bigEndian32(6) + bigEndian16(format) + bigEndian16(tracks) + bigEndian16(division)
    }

    static func chunk(_ type: String, _ data: [UInt8], length: UInt32? = nil) -> [UInt8] {
        Array(type.utf8) + bigEndian32(length ?? UInt32(data.count)) + data
    }

    /// A file with one track chunk holding `trackData`.
    static func oneTrack(_ trackData: [UInt8]) -> [UInt8] {
        header(tracks: 1) + chunk("MTrk", trackData)
    }

    static let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

    /// Offset of the first track chunk's data in a file built by `oneTrack`.
    static let firstTrackData = 14 + 8
}
