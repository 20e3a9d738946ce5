/// A JSON object with fields in a fixed order, rendered on one line (the CLI's
/// `--json` outputs promise their field order).
///
/// - Thread: any (a plain value).
struct JSONObject {
    enum Value {
        case string(String)
        case int(Int)
        case number(Double, decimals: Int)
        case null
        case array([Value])
        /// Already-rendered JSON, e.g. a nested `JSONObject(...).rendered`.
        case rendered(String)
    }

    private(set) var fields: [(key: String, value: Value)] = []

    init(_ fields: [(String, Value)] = []) {
        self.fields = fields.map { (key: $0.0, value: $0.1) }
    }

    mutating func append(_ key: String, _ value: Value) {
        fields.append((key, value))
    }

    var rendered: String {
        "{" + fields.map { "\(Self.quoted($0.key)):\($0.value.rendered)" }.joined(separator: ",") + "}"
    }

    fileprivate static func render(_ value: Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .int(let number): String(number)
        case .number(let number, let decimals): formatFixed(number, decimals: decimals)
        case .null: "null"
        case .array(let values): "[" + values.map(render).joined(separator: ",") + "]"
        case .rendered(let json): json
        }
    }

    fileprivate static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONObject.Value {
    var rendered: String { JSONObject.render(self) }
}

/// `number` with exactly `decimals` digits after the point (no locale, no exponent).
func formatFixed(_ number: Double, decimals: Int) -> String {
    let scale = (0..<decimals).reduce(1.0) { value, _ in value * 10 }
    let scaled = (abs(number) * scale).rounded()
    let whole = Int(scaled / scale)
    let fraction = Int(scaled - Double(whole) * scale)
    let sign = number < 0 && scaled > 0 ? "-" : ""
    guard decimals > 0 else { return sign + String(whole) }
    let digits = String(fraction)
    return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
}
