import Control
import Plugins

/// Isolated plugin nodes' ends, published (docs/plugins.md, "Isolated plugins"): a child that
/// crashed or hung is `node-gone` for its graph node (`crashed` with the signal, or `hung`);
/// the log line naming the plugin is the node's own (`InstalledPlugins.report`).
extension HubDaemon {
    /// - Thread: control (once, as the daemon starts).
    func publishPluginChildEnds() {
        plugins.onChildEvent { [weak self] node, event in
            guard let self, let id = view.value.rack?.instances.first(where: { $0.value === node })?.key else { return }
            switch event {
            case .crashed(let signal, _): log.publish(.nodeGone(node: id.description, reason: .crashed, signal: signal))
            case .hung: log.publish(.nodeGone(node: id.description, reason: .hung))
            case .restarted, .gaveUp: break
            }
        }
    }
}
