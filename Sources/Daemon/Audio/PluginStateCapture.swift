import Foundation
import Hub
import Plugins
import RenderCore
import Synchronization

/// The state file's plugin states: what each LV2 node's plugin keeps of its own (a sampler's
/// sample, a convolver's impulse), read from its running instance when the state is written
/// — the plugin is that state's one home; the graph holds what the node started with. The
/// files a plugin makes or names are linked into a folder per node beside the state file
/// (`plugin-files/NODE`), so a restart finds them. A node that no longer runs (the daemon
/// stopping, the sound card gone) keeps what was last read from it, as long as it was not
/// given another state since.
///
/// - Thread: any (the state writer's queue; the view is published, the plugin's `save`
///   runs beside `run()` as the LV2 state extension allows).
final class PluginStateCapture: Sendable {
    private let view: Published<HubView>
    /// The folder the per-node folders go into.
    private let filesFolder: String
    /// By node: the state it started with and the state last read from it.
    private let lastRead = Mutex<[NodeID: (started: String?, read: String)]>([:])

    init(view: Published<HubView>, filesFolder: String) {
        self.view = view
        self.filesFolder = filesFolder
    }

    /// `state` with each plugin node's `pluginState` as its instance has it.
    func apply(to state: HubState) -> HubState {
        let running = view.value.rack?.instances ?? [:]
        var state = state
        for node in state.graph.nodes {
            guard case .unit(let descriptor) = node.body, descriptor.plugin != nil else { continue }
            if let instance = running[node.id] as? any PluginNode {
                let files = (filesFolder as NSString).appendingPathComponent(node.id)
                try? FileManager.default.createDirectory(atPath: files, withIntermediateDirectories: true)
                guard let text = instance.ownState(files: files) else { continue }
                lastRead.withLock { $0[node.id] = (descriptor.pluginState, text) }
                state.graph.setPluginState(text, of: node.id)
            } else if let last = lastRead.withLock({ $0[node.id] }), last.started == descriptor.pluginState {
                state.graph.setPluginState(last.read, of: node.id)
            }
        }
        return state
    }
}
