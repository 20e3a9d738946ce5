import Hub
import RenderCore

/// A render node hosting an LV2 plugin, in this process (`LV2Node`) or in a child process
/// of its own (`IsolatedPluginNode`): what the control side asks of either beyond `Node`.
/// - Thread: control (or the state writer's queue), as each requirement says.
public protocol PluginNode: Node {
    /// Whether the plugin runs: it started (an isolated one: its child runs it now).
    /// - Thread: any.
    var isRunning: Bool { get }
    /// The plugin's own state as lilv's Turtle, its files linked into `files` (`LV2Node.ownState`).
    /// - Thread: control (or the state writer's queue).
    func ownState(files: String?) -> String?
    /// Sets the file property `name` while the plugin plays (`LV2Node.setFile`).
    /// - Thread: control.
    func setFile(_ name: String, to path: String) throws(PluginRefusal)
    /// Saves the node's sound as a preset (`LV2Node.savePreset`).
    /// - Thread: control.
    func savePreset(label: String, values: [String: Float], in directory: String) throws(PluginRefusal) -> SavedPreset
}

extension LV2Node: PluginNode {
    public var isRunning: Bool { host.withLoaded { _ in instance != nil } }
}

extension PluginNode {
    /// The plugin's own state, its files where it has them (`ownState(files:)`).
    /// - Thread: control.
    public func ownState() -> String? { ownState(files: nil) }
}
