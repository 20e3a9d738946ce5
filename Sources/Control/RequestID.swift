/// The `id` a client puts on a request; the response carries the same value back.
/// JSON numbers (integers) and strings are accepted.
///
/// - Thread: any (a plain value).
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    case number(Int)
    case string(String)

    public init(integerLiteral value: Int) { self = .number(value) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): "\(number)"
        case .string(let string): string
        }
    }
}
