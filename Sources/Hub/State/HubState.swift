import Foundation
import RenderCore

/// What the daemon keeps across restarts: the graph (with the parameter values set at runtime),
/// the rules, the connections made or broken by hand at runtime, the tempo, and the control
/// surface: mappings, scenes, triggers and widgets; the network sessions.
///
/// - Thread: any (a plain value).
public struct HubState: Hashable, Sendable {
    public static let formatVersion = 1

    public var graph: HubGraph
    public var rules: [ConnectionRule]
    public var runtimeEdits: [RuntimeEdit]
    /// Quarter notes per minute.
    public var tempo: Double
    public var mappings: [Mapping]
    public var scenes: [Scene]
    public var triggers: [Trigger]
    public var widgets: [Widget]
    /// The RTP-MIDI sessions the daemon keeps: the patch's `network:` and the peers invited since.
    public var network: NetworkSettings
    /// The patch's `transport:` (docs/jack.md#jack-transport).
    public var jackTransport: JackTransportMode?

    public init(graph: HubGraph = .empty, rules: [ConnectionRule] = [], runtimeEdits: [RuntimeEdit] = [],
                tempo: Double = Patch.defaultTempo, mappings: [Mapping] = [], scenes: [Scene] = [],
                triggers: [Trigger] = [], widgets: [Widget] = [], network: NetworkSettings = .none,
                jackTransport: JackTransportMode? = nil) {
        self.graph = graph
        self.rules = rules
        self.runtimeEdits = runtimeEdits
        self.tempo = tempo
        self.mappings = mappings
        self.scenes = scenes
        self.triggers = triggers
        self.widgets = widgets
        self.network = network
        self.jackTransport = jackTransport
    }

    /// Nothing: what the daemon starts with when there is no usable state.
    public static let defaults = HubState()

    /// Pretty-printed JSON with sorted keys (stable, diff-friendly).
    /// - Thread: control.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.nonConformingFloatEncodingStrategy = Self.floatStrategy.encoding
        // Plain records of strings and numbers (non-finite floats as strings) always encode.
        return Array((try? encoder.encode(StateRecord(self))) ?? Data())
    }

    /// Decodes and validates a state file's contents.
    /// - Throws: ``StateError/corrupt(path:reason:)`` naming the problem.
    /// - Thread: control.
    public init(decoding bytes: [UInt8], path: String) throws(StateError) {
        struct Format: Decodable { var format: Int }
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = Self.floatStrategy.decoding
        if let format = try? decoder.decode(Format.self, from: Data(bytes)).format, format > Self.formatVersion {
            throw .newer(path: path, format: format, supported: Self.formatVersion)
        }
        let record: StateRecord
        do {
            record = try decoder.decode(StateRecord.self, from: Data(bytes))
        } catch {
            throw .corrupt(path: path, reason: Self.describe(error))
        }
        guard record.format == Self.formatVersion else {
            throw .corrupt(path: path, reason: "format \(record.format) is not \(Self.formatVersion)")
        }
        do {
            self = try record.state()
        } catch {
            throw .corrupt(path: path, reason: error.description)
        }
    }

    private static let floatStrategy = (
        encoding: JSONEncoder.NonConformingFloatEncodingStrategy.convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"),
        decoding: JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan"))

    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "not complete JSON (\(context.debugDescription))"
        case DecodingError.keyNotFound(let key, _): "missing field '\(key.stringValue)'"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "wrong value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
