/// Why bytes are not an OSC packet the hub takes: one line naming the problem and what to
/// send instead. The packet is dropped (and counted); nothing of it is carried out.
///
/// - Thread: any (a plain value).
public enum OSCError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The bytes end inside `what` (a string, an argument, a bundle element).
    case truncated(String)
    /// The packet's length is not a multiple of 4 bytes, as OSC 1.0 requires.
    case misaligned(Int)
    /// The packet is over `limit` bytes.
    case tooLarge(Int, limit: Int)
    /// Bundles nested deeper than `limit`.
    case tooDeep(limit: Int)
    /// The packet starts with neither `/` (a message) nor `#bundle` (a bundle).
    case notAPacket
    /// A message's type tag string does not start with `,`.
    case noTypeTags(address: String)
    /// An argument type the hub does not take.
    case unsupportedType(Character, address: String)
    /// A string that is not UTF-8, or holds a NUL before its end.
    case badString
    /// A bundle element whose size is negative, not a multiple of 4, or past the bundle's end.
    case badElementSize(Int)
    /// A stream's size prefix that is not a positive multiple of 4.
    case badFrameSize(Int)
    /// A SLIP escape byte followed by `byte`, which is neither of the two it may be.
    case badSLIPEscape(UInt8)

    public var description: String {
        switch self {
        case .truncated(let what):
            "OSC packet ends inside \(what) (fix: send whole packets; over TCP, frame each one)"
        case .misaligned(let count):
            "OSC packet of \(count) bytes is not a multiple of 4 (fix: pad strings and blobs with NULs to 4 bytes)"
        case .tooLarge(let count, let limit):
            "OSC packet of \(count) bytes is over the \(limit)-byte limit (fix: send smaller bundles)"
        case .tooDeep(let limit):
            "OSC bundles nested more than \(limit) deep (fix: flatten the bundle)"
        case .notAPacket:
            "not an OSC packet: it starts with neither '/' nor '#bundle' (fix: send OSC 1.0 messages or bundles)"
        case .noTypeTags(let address):
            "OSC message \(address) has no type tag string (fix: send ',' and a tag per argument, as OSC 1.0 does)"
        case .unsupportedType(let tag, let address):
            "OSC message \(address) has an argument of type '\(tag)', which the hub does not take (fix: use i, f, d, s, T, F or m)"
        case .badString:
            "OSC string is not UTF-8 or has a NUL inside (fix: send UTF-8 text, NUL-terminated and padded to 4 bytes)"
        case .badElementSize(let size):
            "OSC bundle element of \(size) bytes does not fit the bundle (fix: give each element its size, a multiple of 4)"
        case .badFrameSize(let size):
            "OSC over TCP: a packet size of \(size) is not a positive multiple of 4 (fix: send each packet's byte count as a 32-bit big-endian number before it, or frame with SLIP)"
        case .badSLIPEscape(let byte):
            "OSC over TCP: SLIP escape 0xDB followed by 0x\(String(byte, radix: 16, uppercase: true)) (fix: escape 0xC0 as 0xDB 0xDC and 0xDB as 0xDB 0xDD)"
        }
    }
}
