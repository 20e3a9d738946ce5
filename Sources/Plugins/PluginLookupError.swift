import Hub

/// A plugin name that names no installed plugin, or several.
/// - Thread: any (a plain value).
public enum PluginLookupError: Error, Equatable, CustomStringConvertible {
    case unknown(String)
    case ambiguous(String, candidates: [String])

    public var problem: String {
        switch self {
        case .unknown(let name): "no LV2 plugin '\(name)' is installed"
        case .ambiguous(let name, let candidates): "'\(name)' names \(candidates.count) LV2 plugins"
        }
    }

    public var fix: String {
        switch self {
        case .unknown: "'midihub plugins' lists them; Debian packages plugins as mda-lv2, x42-plugins, …"
        case .ambiguous(_, let candidates):
            "give a URI: " + candidates.prefix(5).joined(separator: ", ") + (candidates.count > 5 ? ", …" : "")
        }
    }

    /// One line: the problem and the fix.
    public var description: String { "\(problem) (fix: \(fix))" }

    /// The same as a node's refusal.
    public var refusal: PluginRefusal { PluginRefusal(problem, fix: fix) }
}
