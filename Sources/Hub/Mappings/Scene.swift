/// A scene: a named snapshot of parameter values — or another patch, loaded whole — that a
/// program change, a mapping or the control API switches to at once (docs/mappings.md#scenes).
///
/// - Thread: any (a plain value).
public struct Scene: Hashable, Sendable, Codable {
    public var name: String
    /// The program (0…127) whose change selects it, through a mapping to `scene.program`.
    public var program: UInt8?
    public var values: [SceneValue]
    /// The patch file (absolute) the scene loads instead of setting values.
    public var patch: String?

    public init(name: String, program: UInt8? = nil, values: [SceneValue], patch: String? = nil) {
        self.name = name
        self.program = program
        self.values = values
        self.patch = patch
    }
}

/// One parameter value of a scene.
///
/// - Thread: any (a plain value).
public struct SceneValue: Hashable, Sendable, Codable {
    /// The node, or `transport` for the tempo.
    public var node: NodeID
    public var parameter: String
    public var value: Float

    public init(node: NodeID, parameter: String, value: Float) {
        self.node = node
        self.parameter = parameter
        self.value = value
    }
}
