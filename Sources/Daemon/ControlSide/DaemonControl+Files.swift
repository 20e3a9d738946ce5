import Control
import Dispatch
import Hub
import Plugins
import RenderCore

/// An LV2 plugin's file properties over `parameters.set` (docs/plugins.md#files): the path
/// goes to the running plugin as a `patch:Set`, here, on the control side; the owner is not
/// entered — the plugin keeps the file in its own state, which the state writer reads.
/// - Thread: control (the server's thread).
extension DaemonControl {
    /// How long after a file is set the state is written: the plugin loads the file on its
    /// worker first, and its own state names the new file only once it has.
    static let fileSettling = DispatchTimeInterval.seconds(1)

    /// Sets the file property `assignment` names to the path it carries, when it names one
    /// (`nil`: no file property of a plugin node, a parameter then).
    /// - Throws: `ControlError`: the node does not play now, the file is refused.
    func setFile(_ assignment: ParameterAssignment) throws -> ParameterSummary? {
        let view = daemon.view.value
        guard let path = assignment.choice, let node = view.graph.node(assignment.node), case .unit(let descriptor) = node.body,
              let files = descriptor.plugin?.files, let index = files.firstIndex(where: { $0.name == assignment.parameter })
        else { return nil }
        guard let running = view.rack?.instances[assignment.node] as? any PluginNode else {
            throw ControlError(.failed, "node '\(assignment.node)' does not play now, so its file '\(assignment.parameter)' cannot be set",
                               fix: "set it once the audio runs ('midihub nodes' shows the node)")
        }
        do {
            try running.setFile(assignment.parameter, to: path)
        } catch {
            throw ControlError(.invalidValue, error.problem, fix: error.fix)
        }
        daemon.log.info("node \(assignment.node): file '\(assignment.parameter)' set to \(path)")
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.fileSettling) { [daemon] in
            daemon.stateWriter.submit(daemon.view.value.hub.state)
        }
        return ParameterSummary(id: index, name: assignment.parameter, min: nil, max: nil, default: nil, unit: "path", value: 0,
                                file: path)
    }
}
