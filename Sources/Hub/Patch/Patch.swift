import Foundation
import Yams

/// A whole setup as written in a patch file: the graph and the connection rules.
/// See docs/patch-format.md.
///
/// Loading validates everything first and either returns a complete `Patch` or throws a
/// ``PatchError``; the caller's running setup is never touched.
///
/// - Thread: any (a plain value); loading runs on the control side.
public struct Patch: Hashable, Sendable {
    public var graph: HubGraph
    public var rules: [ConnectionRule]
    /// The hub's tempo in quarter notes per minute (the arpeggiator's grid, tempo-synced effects).
    public var tempo: Double

    /// Tempos a patch or the control socket may set.
    public static let tempoRange: ClosedRange<Double> = 20...400
    public static let defaultTempo: Double = 120

    public init(graph: HubGraph = .empty, rules: [ConnectionRule] = [], tempo: Double = Patch.defaultTempo) {
        self.graph = graph
        self.rules = rules
        self.tempo = tempo
    }

    /// Top-level keys accepted now; `mappings`, `widgets` and `triggers` are reserved and skipped.
    static let knownKeys = ["version", "name", "description", "tempo", "nodes", "routes", "rules"]
    static let reservedKeys = ["mappings", "widgets", "triggers"]

    /// Reads and validates the patch at `path`.
    /// - Throws: ``PatchError`` with the file, line and column of the first problem.
    /// - Thread: control (reads the file).
    public static func load(contentsOf path: String, registry: NodeRegistry) throws(PatchError) -> Patch {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw PatchError(file: path, line: 1, column: 1, reason: "cannot read the patch: \(error.localizedDescription)",
                             fix: "check the path and that the file is UTF-8 text")
        }
        return try parse(yaml: text, file: path, registry: registry)
    }

    /// Parses and validates patch text; `file` is used in error messages.
    /// - Throws: ``PatchError``.
    /// - Thread: control.
    public static func parse(yaml text: String, file: String, registry: NodeRegistry) throws(PatchError) -> Patch {
        let reader = PatchReader(file: file, registry: registry)
        if let excess = PatchNesting.firstExcess(in: text) {
            throw PatchError(file: file, line: excess.line, column: excess.column, reason: excess.reason, fix: excess.fix)
        }
        let root: YAMLNode
        do {
            guard let composed = try Yams.compose(yaml: text) else {
                throw reader.error(at: nil, "the patch is empty", fix: "start from an example in patches/")
            }
            root = composed
        } catch let error as PatchError {
            throw error
        } catch let error as YamlError {
            throw reader.error(error)
        } catch {
            throw reader.error(at: nil, "cannot parse YAML: \(error)", fix: "check indentation and quoting")
        }
        return try reader.patch(root)
    }
}
