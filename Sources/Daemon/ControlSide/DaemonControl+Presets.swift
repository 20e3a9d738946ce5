import Control
import Foundation
import Hub
import MIDICore
import RenderCore

/// LV2 presets over the control socket (docs/plugins.md#presets): the work with lilv (reading a
/// preset's bundle, writing one) happens here, on the control side; the owner only sets the
/// values.
/// - Thread: control (the server's thread).
extension DaemonControl {
    /// `presets.load`: reads the preset's values here and sets them on the owner in one turn,
    /// each at the same frame (held notes go on sounding); values outside a parameter's range
    /// are clamped to it, ports that are no parameter left out. A preset that holds some of
    /// the plugin's own state (a sampler's sample) gives the node a new instance restoring it,
    /// prepared here and crossfaded in as any replaced node is (its notes end).
    func loadPreset(_ load: PresetLoad) throws -> NodeSummary {
        let descriptor = try pluginDescriptor(of: load.node)
        let preset: [String: Float], ownState: String?
        do throws(PluginRefusal) {
            preset = try daemon.registry.presetValues(of: descriptor, preset: load.preset)
            ownState = try daemon.registry.presetState(of: descriptor, preset: load.preset)
        } catch {
            throw ControlError(.invalidValue, error.problem, fix: error.fix)
        }
        let parameters = descriptor.plugin?.parameters ?? []
        let values = parameters.compactMap { info in preset[info.name].map { (info.name, info.clamp($0)) } }
        if let ownState {
            var restoring = descriptor
            restoring.pluginState = ownState
            let kept = daemon.view.value.graph.node(load.node)?.parameters ?? [:]
            try durably {
                try daemon.applyGraphEdit(.replace(load.node, with: .unit(restoring),
                                                   parameters: kept.merging(values) { _, preset in preset }))
                daemon.log.info("node \(load.node): preset '\(load.preset)' loaded with the plugin's own state (\(values.count) values)")
            }
            return try daemon.view.value.node(load.node)
        }
        try durably {
            try daemon.perform { [self] in
                let time = HostTime.now()
                for (name, value) in values { _ = try daemon.setParameter(node: load.node, name, to: value, at: time) }
                daemon.log.info("node \(load.node): preset '\(load.preset)' loaded (\(values.count) values)")
            }
        }
        return try daemon.view.value.node(load.node)
    }

    /// `presets.save`: saves the node's sound — its parameters' values as the state holds
    /// them, the plugin's own state from its running instance — as a preset where LV2 hosts
    /// find it, here (lilv writes the bundle); the owner is not entered.
    func savePreset(_ save: PresetSave) throws -> PresetSummary {
        guard !save.label.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ControlError(.invalidValue, "a preset needs a label", fix: "give \"label\", e.g. \"Quiet room\"")
        }
        let descriptor = try pluginDescriptor(of: save.node)
        let view = daemon.view.value
        do throws(PluginRefusal) {
            let saved = try daemon.plugins.savePreset(of: descriptor, label: save.label,
                                                      values: view.graph.node(save.node)?.parameters ?? [:],
                                                      running: view.rack?.instances[save.node])
            daemon.log.info("node \(save.node): preset '\(save.label)' saved in \(saved.bundle)")
            return PresetSummary(node: save.node, plugin: descriptor.plugin?.uri ?? "", label: saved.label, uri: saved.uri,
                                 bundle: saved.bundle)
        } catch {
            throw ControlError(.failed, error.problem, fix: error.fix)
        }
    }

    /// The plugin node `id`'s descriptor.
    /// - Throws: `ControlError` when there is no such node or it hosts no LV2 plugin.
    private func pluginDescriptor(of id: NodeID) throws(ControlError) -> NodeDescriptor {
        guard let node = daemon.view.value.graph.node(id) else { throw HubDaemon.unknownNode(id) }
        guard case .unit(let descriptor) = node.body, descriptor.plugin != nil else {
            throw ControlError(.invalidValue, "node '\(id)' (\(node.body.kindName)) is no LV2 plugin: presets are a plugin's",
                               fix: "name a plugin node ('midihub nodes' shows each node's plugin)")
        }
        return descriptor
    }
}
