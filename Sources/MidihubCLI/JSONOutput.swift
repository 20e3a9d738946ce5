import Foundation

/// Prints a listing's `--json` form: the control protocol's own types, encoded with sorted
/// keys, indented for people (`jq` reads it as well as the one-line form).
/// - Thread: main.
func printJSON<Value: Encodable>(_ value: Value) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    print(String(decoding: try encoder.encode(value), as: UTF8.self))
}
