import Foundation

/// One place that turns values into JSON lines and back, with the same settings
/// on both sides: compact output (never a newline inside), keys sorted (the same
/// value always gives the same line), slashes unescaped,
/// non-finite numbers as the strings "inf", "-inf" and "nan".
///
/// - Thread: any.
enum JSONLine {
    static func encode(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        var bytes = [UInt8](try encoder.encode(value))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    static func decode<Value: Decodable>(_ type: Value.Type, from line: [UInt8]) throws -> Value {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try decoder.decode(type, from: Data(line))
    }
}
