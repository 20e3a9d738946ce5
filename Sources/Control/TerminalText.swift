/// Text that came from files and peers (a token of a `.song`, a patch's value, a port's
/// name) made safe for one line on a terminal or in a log: control characters escaped, and a
/// line that would run on left out in the middle, keeping its end (where the fix is).
///
/// - Thread: any.
public enum TerminalText {
    /// `text` with every control character escaped — `\e` (ESC), `\a`, `\b`, `\t`, `\n`,
    /// `\r`, `\0`, others and DEL as `\x1F` — and, past `limit` characters, its middle left
    /// out as `…`.
    public static func line(_ text: String, limit: Int = 600) -> String {
        var escaped = ""
        escaped.reserveCapacity(min(text.utf8.count, limit + 32))
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1B: escaped += "\\e"
            case 0x07: escaped += "\\a"
            case 0x08: escaped += "\\b"
            case 0x09: escaped += "\\t"
            case 0x0A: escaped += "\\n"
            case 0x0D: escaped += "\\r"
            case 0x00: escaped += "\\0"
            case 0x01...0x1F, 0x7F...0x9F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        guard escaped.count > limit else { return escaped }
        let keep = (limit - 1) / 2
        return String(escaped.prefix(keep)) + "…" + String(escaped.suffix(keep))
    }
}
