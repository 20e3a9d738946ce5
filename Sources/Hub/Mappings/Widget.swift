/// What a remote shows for one control of the hub (docs/mappings.md#widgets): a slider or
/// knob on a parameter, a switch or a momentary button on one, a button firing a trigger, a
/// label showing a value, a meter showing an output, a selector over the scenes.
///
/// - Thread: any (a plain value).
public struct Widget: Hashable, Sendable, Codable {
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A parameter over its range.
        case slider, knob
        /// A parameter at its bottom or top.
        case `switch`
        /// A parameter at its top while held.
        case momentary
        /// Fires a trigger.
        case button
        /// Shows a value, read only: a parameter or an output.
        case label
        /// Shows an output (voices, a level) as it moves.
        case meter
        /// Picks a scene.
        case selector
    }

    public var kind: Kind
    /// The caption a remote shows.
    public var title: String
    /// The node or pseudo-node (`transport`, `trigger`, `scene`).
    public var node: NodeID
    /// The parameter, the output, or the trigger's name; empty for a selector.
    public var parameter: String
    /// Whether it shows one of the node's outputs (a meter; a label may) rather than a parameter.
    public var showsOutput: Bool

    public init(kind: Kind, title: String, node: NodeID, parameter: String, showsOutput: Bool = false) {
        self.kind = kind
        self.title = title
        self.node = node
        self.parameter = parameter
        self.showsOutput = showsOutput
    }

    /// `synth.brightness`, `trigger.panic`, `scene`.
    public var target: String { parameter.isEmpty ? node : "\(node).\(parameter)" }
}
