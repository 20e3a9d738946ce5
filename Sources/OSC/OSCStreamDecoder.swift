/// How OSC packets are framed on a stream (TCP): OSC 1.0's 32-bit big-endian size before
/// each packet, or OSC 1.1's SLIP (RFC 1055: each packet ended — and usually begun — by
/// `0xC0`, with `0xC0` and `0xDB` escaped inside).
///
/// - Thread: any (a plain value).
public enum OSCStreamFraming: Sendable, Hashable {
    case sizePrefixed
    case slip

    static let end: UInt8 = 0xC0
    static let escape: UInt8 = 0xDB
    static let escapedEnd: UInt8 = 0xDC
    static let escapedEscape: UInt8 = 0xDD

    /// `packet` framed for the stream.
    public func frame(_ packet: [UInt8]) -> [UInt8] {
        switch self {
        case .sizePrefixed:
            let size = UInt32(packet.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)] + packet
        case .slip:
            var framed: [UInt8] = [Self.end]
            framed.reserveCapacity(packet.count + 8)
            for byte in packet {
                switch byte {
                case Self.end: framed += [Self.escape, Self.escapedEnd]
                case Self.escape: framed += [Self.escape, Self.escapedEscape]
                default: framed.append(byte)
                }
            }
            framed.append(Self.end)
            return framed
        }
    }
}

/// Cuts a stream of bytes (one TCP connection's) into OSC packets. The framing is told from
/// the stream's first byte, as liblo does: `0xC0` is SLIP, anything else a size prefix.
/// A packet over `OSCPacket.maximumSize` or a frame that cannot be read (a size that is
/// not a positive multiple of 4, a SLIP escape of nothing) ends the stream: its bytes no
/// longer say where a packet starts.
///
/// - Thread: any (a plain value; one per connection, on its reader's thread).
public struct OSCStreamDecoder: Sendable {
    /// The framing, once the first byte told it.
    public private(set) var framing: OSCStreamFraming?
    private var pending: [UInt8] = []
    /// Where the unread bytes of `pending` start (it is compacted when half is read).
    private var start = 0
    /// The SLIP packet being read, unescaped.
    private var slipPacket: [UInt8] = []
    private var slipEscaped = false

    public init() {}

    /// Adds bytes that came on the stream.
    public mutating func append(_ bytes: some Collection<UInt8>) {
        if framing == nil, let first = bytes.first { framing = first == OSCStreamFraming.end ? .slip : .sizePrefixed }
        pending.append(contentsOf: bytes)
    }

    /// The next whole packet's bytes (not yet decoded), or nil until more bytes come.
    /// - Throws: `OSCError` when the stream cannot be read on; drop the connection then.
    public mutating func nextPacket() throws(OSCError) -> [UInt8]? {
        defer { compact() }
        switch framing {
        case nil: return nil
        case .sizePrefixed: return try nextSizePrefixed()
        case .slip: return try nextSLIP()
        }
    }

    private mutating func nextSizePrefixed() throws(OSCError) -> [UInt8]? {
        guard pending.count - start >= 4 else { return nil }
        let size = pending[start..<start + 4].reduce(0) { $0 << 8 | Int($1) }
        guard size <= OSCPacket.maximumSize else { throw .tooLarge(size, limit: OSCPacket.maximumSize) }
        guard size > 0, size % 4 == 0 else { throw .badFrameSize(size) }
        guard pending.count - start >= 4 + size else { return nil }
        let packet = Array(pending[start + 4..<start + 4 + size])
        start += 4 + size
        return packet
    }

    private mutating func nextSLIP() throws(OSCError) -> [UInt8]? {
        while start < pending.count {
            let byte = pending[start]
            start += 1
            if slipEscaped {
                slipEscaped = false
                switch byte {
                case OSCStreamFraming.escapedEnd: slipPacket.append(OSCStreamFraming.end)
                case OSCStreamFraming.escapedEscape: slipPacket.append(OSCStreamFraming.escape)
                default: throw .badSLIPEscape(byte)
                }
            } else if byte == OSCStreamFraming.escape {
                slipEscaped = true
            } else if byte == OSCStreamFraming.end {
                guard !slipPacket.isEmpty else { continue }  // the END before a packet, or two in a row
                defer { slipPacket.removeAll(keepingCapacity: true) }
                return slipPacket
            } else {
                slipPacket.append(byte)
            }
            guard slipPacket.count <= OSCPacket.maximumSize else { throw .tooLarge(slipPacket.count, limit: OSCPacket.maximumSize) }
        }
        return nil
    }

    private mutating func compact() {
        if start == pending.count {
            pending.removeAll(keepingCapacity: pending.capacity <= 2 * OSCPacket.maximumSize)
            start = 0
        } else if start > pending.count / 2 {
            pending.removeFirst(start)
            start = 0
        }
    }
}
