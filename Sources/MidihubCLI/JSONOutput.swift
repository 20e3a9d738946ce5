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
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let lines = try elements.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    return lines.isEmpty ? "[]" : "[\n  " + lines.joined(separator: ",\n  ") + "\n]"
}
