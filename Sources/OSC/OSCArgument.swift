/// One argument of an OSC message, of the types the hub takes: OSC 1.0's `i`, `f` and `s`,
/// and the common `d`, `T`/`F` and `m` (a MIDI message). Any other type tag is refused when
/// the packet is read (`OSCError.unsupportedType`).
///
/// - Thread: any (a plain value).
public enum OSCArgument: Hashable, Sendable {
    /// `i`: a 32-bit integer.
    case int(Int32)
    /// `f`: a 32-bit float.
    case float(Float)
    /// `d`: a 64-bit float.
    case double(Double)
    /// `s`: a string (UTF-8).
    case string(String)
    /// `T` or `F`: true or false, with no data.
    case bool(Bool)
    /// `m`: a MIDI message of up to three bytes, with the port id byte OSC 1.0 puts first.
    case midi(OSCMIDI)

    /// The type tag the argument is written with.
    /// - Thread: any.
    public var typeTag: UInt8 {
        switch self {
        case .int: UInt8(ascii: "i")
        case .float: UInt8(ascii: "f")
        case .double: UInt8(ascii: "d")
        case .string: UInt8(ascii: "s")
        case .bool(let value): value ? UInt8(ascii: "T") : UInt8(ascii: "F")
        case .midi: UInt8(ascii: "m")
        }
    }

    /// The argument as a number: `i`, `f`, `d`, and `T`/`F` as 1/0; `nil` for a string or MIDI.
    /// - Thread: any.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .float(let value): Double(value)
        case .double(let value): value
        case .bool(let value): value ? 1 : 0
        case .string, .midi: nil
        }
    }
}

/// The four bytes of an OSC `m` argument: a port id, then a MIDI message's status and data
/// bytes (a two-byte message leaves the last 0).
///
/// - Thread: any (a plain value).
public struct OSCMIDI: Hashable, Sendable {
    public var port: UInt8
    public var status: UInt8
    public var data1: UInt8
    public var data2: UInt8

    /// - Thread: any.
    public init(port: UInt8 = 0, status: UInt8, data1: UInt8, data2: UInt8 = 0) {
        self.port = port
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }
}
