extension OSCPacket {
    /// The largest packet read (a UDP datagram's limit, rounded): larger ones are refused.
    public static let maximumSize = 65_536
    /// How deep bundles may nest.
    public static let maximumDepth = 8

    /// Reads one OSC 1.0 packet — a message or a bundle — from `bytes`, all of them.
    /// - Throws: `OSCError` naming what is wrong; nothing of the packet is kept then.
    /// - Thread: any.
    public init(decoding bytes: [UInt8]) throws(OSCError) {
        guard bytes.count <= Self.maximumSize else { throw .tooLarge(bytes.count, limit: Self.maximumSize) }
        var reader = OSCReader(bytes, end: bytes.count)
        self = try Self.read(&reader, depth: 0)
    }

    private static let bundleMarker: [UInt8] = Array("#bundle".utf8) + [0]

    private static func read(_ reader: inout OSCReader, depth: Int) throws(OSCError) -> OSCPacket {
        guard reader.remaining % 4 == 0 else { throw .misaligned(reader.remaining) }
        if reader.startsWith(Self.bundleMarker) {
            guard depth < Self.maximumDepth else { throw .tooDeep(limit: Self.maximumDepth) }
            reader.skip(Self.bundleMarker.count)
            let timeTag = OSCTimeTag(seconds: try reader.uint32("a bundle's time tag"), fraction: try reader.uint32("a bundle's time tag"))
            var elements: [OSCPacket] = []
            while reader.remaining > 0 {
                let size = Int(Int32(bitPattern: try reader.uint32("a bundle element's size")))
                guard size >= 0, size % 4 == 0, size <= reader.remaining else { throw .badElementSize(size) }
                var element = reader.slice(size)
                elements.append(try read(&element, depth: depth + 1))
                reader.skip(size)
            }
            return .bundle(OSCBundle(timeTag: timeTag, elements))
        }
        guard reader.peek == UInt8(ascii: "/") else { throw .notAPacket }
        let address = try reader.string("the address")
        guard reader.remaining > 0 else { return .message(OSCMessage(address)) }  // OSC 1.0's older senders omit the tags
        guard reader.peek == UInt8(ascii: ",") else { throw .noTypeTags(address: address) }
        let tags = Array(try reader.string("the type tags").utf8.dropFirst())
        var arguments: [OSCArgument] = []
        arguments.reserveCapacity(tags.count)
        for tag in tags {
            arguments.append(try reader.argument(tag, of: address))
        }
        guard reader.remaining == 0 else { throw .truncated("the arguments of \(address) (bytes past the last one)") }
        return .message(OSCMessage(address, arguments))
    }
}

/// Big-endian reads over a range of a packet's bytes, each checked against the range's end.
///
/// - Thread: any (a plain value).
struct OSCReader {
    private let bytes: [UInt8]
    private var index: Int
    private let end: Int

    init(_ bytes: [UInt8], from index: Int = 0, end: Int) {
        self.bytes = bytes
        self.index = index
        self.end = end
    }

    var remaining: Int { end - index }
    var peek: UInt8? { index < end ? bytes[index] : nil }

    func startsWith(_ prefix: [UInt8]) -> Bool {
        remaining >= prefix.count && bytes[index..<index + prefix.count].elementsEqual(prefix)
    }

    mutating func skip(_ count: Int) { index += count }

    /// The next `count` bytes as a reader of their own.
    func slice(_ count: Int) -> OSCReader { OSCReader(bytes, from: index, end: index + count) }

    mutating func uint32(_ what: String) throws(OSCError) -> UInt32 {
        guard remaining >= 4 else { throw .truncated(what) }
        defer { index += 4 }
        return UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
    }

    mutating func uint64(_ what: String) throws(OSCError) -> UInt64 {
        UInt64(try uint32(what)) << 32 | UInt64(try uint32(what))
    }

    /// A NUL-terminated string padded to 4 bytes.
    mutating func string(_ what: String) throws(OSCError) -> String {
        guard let terminator = bytes[index..<end].firstIndex(of: 0) else { throw .truncated(what) }
        let padded = (terminator - index + 4) & ~3
        guard padded <= remaining else { throw .truncated(what) }
        guard let text = String(validating: bytes[index..<terminator], as: UTF8.self) else { throw .badString }
        index += padded
        return text
    }

    mutating func argument(_ tag: UInt8, of address: String) throws(OSCError) -> OSCArgument {
        let what = "an argument of \(address)"
        switch tag {
        case UInt8(ascii: "i"): return .int(Int32(bitPattern: try uint32(what)))
        case UInt8(ascii: "f"): return .float(Float(bitPattern: try uint32(what)))
        case UInt8(ascii: "d"): return .double(Double(bitPattern: try uint64(what)))
        case UInt8(ascii: "s"): return .string(try string(what))
        case UInt8(ascii: "T"): return .bool(true)
        case UInt8(ascii: "F"): return .bool(false)
        case UInt8(ascii: "m"):
            let word = try uint32(what)
            return .midi(OSCMIDI(port: UInt8(word >> 24), status: UInt8(word >> 16 & 0xFF), data1: UInt8(word >> 8 & 0xFF),
                                 data2: UInt8(word & 0xFF)))
        default:
            throw .unsupportedType(Character(Unicode.Scalar(tag)), address: address)
        }
    }
}
