/// What an OSC packet holds: one message, or a bundle of packets with the time they take
/// effect (OSC 1.0). Read with `init(decoding:)`, written with `encoded()`.
///
/// - Thread: any (a plain value).
public indirect enum OSCPacket: Hashable, Sendable {
    case message(OSCMessage)
    case bundle(OSCBundle)

    /// Every message of the packet, a bundle's in order (nested bundles' too), each with the
    /// time tag of the bundle that holds it most closely (`.immediately` for a bare message).
    /// - Thread: any.
    public var messages: [(message: OSCMessage, timeTag: OSCTimeTag)] {
        switch self {
        case .message(let message):
            [(message, .immediately)]
        case .bundle(let bundle):
            bundle.elements.flatMap { element in
                element.messages.map { item in
                    if case .message = element { (item.message, bundle.timeTag) } else { item }
                }
            }
        }
    }
}

/// An OSC message: an address (or an address pattern, as a sender may write it) and its
/// arguments.
///
/// - Thread: any (a plain value).
public struct OSCMessage: Hashable, Sendable {
    public var address: String
    public var arguments: [OSCArgument]

    /// - Thread: any.
    public init(_ address: String, _ arguments: [OSCArgument] = []) {
        self.address = address
        self.arguments = arguments
    }
}

/// An OSC bundle: packets that take effect together at `timeTag`.
///
/// - Thread: any (a plain value).
public struct OSCBundle: Hashable, Sendable {
    public var timeTag: OSCTimeTag
    public var elements: [OSCPacket]

    /// - Thread: any.
    public init(timeTag: OSCTimeTag = .immediately, _ elements: [OSCPacket]) {
        self.timeTag = timeTag
        self.elements = elements
    }
}

/// An OSC time tag: NTP time, seconds since 1900-01-01 and a binary fraction of a second;
/// `.immediately` (0 seconds, fraction 1) means "as soon as it arrives".
///
/// - Thread: any (a plain value).
public struct OSCTimeTag: Hashable, Sendable {
    public var seconds: UInt32
    public var fraction: UInt32

    /// - Thread: any.
    public init(seconds: UInt32, fraction: UInt32) {
        self.seconds = seconds
        self.fraction = fraction
    }

    /// "As soon as it arrives".
    public static let immediately = OSCTimeTag(seconds: 0, fraction: 1)

    /// Whether the tag says "as soon as it arrives".
    /// - Thread: any.
    public var isImmediate: Bool { self == .immediately }

    /// Seconds between 1900 (NTP's origin) and 1970 (the Unix epoch).
    public static let unixEpoch: UInt64 = 2_208_988_800

    /// The tag of `nanoseconds` after the Unix epoch (the wall clock's time).
    /// - Thread: any.
    public init(unixNanoseconds nanoseconds: Int64) {
        let whole = UInt64(max(nanoseconds, 0)) / 1_000_000_000, rest = UInt64(max(nanoseconds, 0)) % 1_000_000_000
        seconds = UInt32(truncatingIfNeeded: whole + Self.unixEpoch)
        fraction = UInt32((rest << 32) / 1_000_000_000)
    }

    /// The tag's time as nanoseconds after the Unix epoch (negative before it).
    /// - Thread: any.
    public var unixNanoseconds: Int64 {
        let whole = Int64(seconds) - Int64(Self.unixEpoch)
        return whole * 1_000_000_000 + Int64((UInt64(fraction) * 1_000_000_000) >> 32)
    }
}
