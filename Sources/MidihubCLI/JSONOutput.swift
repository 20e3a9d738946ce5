import Foundation

/// Prints a listing's `--json` form: an array of the control protocol's own objects, one
/// compact object per line with sorted keys, as the daemon writes them (`grep` finds a
/// line, `jq` reads the whole).
/// - Thread: main.
func printJSON<Element: Encodable>(_ elements: [Element]) throws {
    print(try jsonLines(elements))
}

/// The text `printJSON` prints.
/// - Thread: any.
func jsonLines<Element: Encodable>(_ elements: [Element]) throws -> String {
    let lines = try elements.map(compactJSON)
    return lines.isEmpty ? "[]" : "[\n  " + lines.joined(separator: ",\n  ") + "\n]"
}

/// Prints one object of the control protocol as one compact line with sorted keys.
/// - Thread: main.
func printJSON(object: some Encodable) throws {
    print(try compactJSON(object))
}

private func compactJSON(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}
