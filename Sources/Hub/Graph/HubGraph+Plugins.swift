import RenderCore

extension HubGraph {
    /// The graph with each LV2 plugin node's descriptor read again from `registry`'s plugins
    /// (a saved state keeps a plugin's URI and its own state, not its ports); a plugin that is no longer
    /// installed, or no longer hostable, keeps its node, with no parameters, and is named in
    /// `refusals` (its node stays silent).
    /// - Thread: control (may read the plugins' bundles).
    public func resolvingPlugins(with registry: NodeRegistry) -> (graph: HubGraph, refusals: [PluginRefusal]) {
        var graph = self
        var refusals: [PluginRefusal] = []
        for index in graph.nodes.indices {
            guard case .unit(let descriptor) = graph.nodes[index].body, let plugin = descriptor.plugin else { continue }
            do {
                var resolved = try registry.plugin(plugin.uri)
                resolved.pluginState = descriptor.pluginState
                resolved.isolated = descriptor.isolated
                graph.nodes[index].body = .unit(resolved)
            } catch {
                refusals.append(PluginRefusal("node '\(graph.nodes[index].id)': \(error.problem)", fix: error.fix))
            }
        }
        return (graph, refusals)
    }
}

extension HubGraph {
    /// Gives the plugin node `id` `text` as its own state (`NodeDescriptor.pluginState`);
    /// nothing for another node.
    /// - Thread: any (a plain value's).
    public mutating func setPluginState(_ text: String?, of id: NodeID) {
        guard let index = nodes.firstIndex(where: { $0.id == id }), case .unit(var descriptor) = nodes[index].body,
              descriptor.plugin != nil else { return }
        descriptor.pluginState = text
        nodes[index].body = .unit(descriptor)
    }
}
