import MIDICore
@testable import Hub

/// A mapping engine with the values it moves: the tests' stand-in for the hub, which keeps
/// each value in one place (here a table), lets the engine read it and carries out the
/// changes the engine hands out.
struct MappedValues {
    /// The values by node and parameter; one not in the table is `start`.
    struct Table: ParameterReading {
        var values: [String: Float] = [:]
        var start: Float?

        func value(of parameter: String, of node: NodeID) -> Float? { values["\(node)/\(parameter)"] ?? start }
    }

    var engine: MappingEngine
    var table: Table

    /// `mappings`, their targets all at `start` (`nil`: unknown, taken as each target's low end).
    init(_ mappings: [Mapping], start: Float? = nil) {
        engine = MappingEngine(mappings)
        table = Table(start: start)
    }

    var hasFeedbackDue: Bool { engine.hasFeedbackDue }

    /// The engine reads `message`; what it set is carried out and appended to `changes`.
    mutating func handle(_ message: MIDIMessage, device: Int, sources: [NodeID], time: HostTime,
                         into changes: inout [MappingEngine.Change]) -> Bool {
        let first = changes.count
        let taken = engine.handle(message, device: device, sources: sources, time: time, values: table, into: &changes)
        for change in changes[first...] { table.values["\(change.node)/\(change.parameter)"] = change.value }
        return taken
    }

    /// Something other than a mapping set a value.
    mutating func valueChanged(node: NodeID, parameter: String, to value: Float) {
        table.values["\(node)/\(parameter)"] = value
        engine.valueChanged(node: node, parameter: parameter)
    }

    mutating func showValues(from sources: Set<NodeID>? = nil) { engine.showValues(from: sources) }

    mutating func takeFeedback(at time: HostTime) -> [(mapping: Mapping, messages: [MIDIMessage])] {
        engine.takeFeedback(at: time, values: table)
    }
}
