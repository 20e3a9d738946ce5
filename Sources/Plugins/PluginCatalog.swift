internal import CLilv
import Hub

/// The LV2 plugins installed on the system, read with lilv from the bundles on `LV2_PATH`
/// (by default `~/.lv2`, `/usr/local/lib/lv2`, `/usr/lib/lv2` and the multiarch folder):
/// what each is, its ports, its presets and the features it requires. Reading the bundles
/// takes a moment (a second for Debian's few hundred plugins with a cold disk cache): the
/// catalog is made once, off the MIDI and render threads.
///
/// - Thread: control (the thread that made it; lilv's world is not shared).
public final class PluginCatalog {
    let world: OpaquePointer
    let terms: Terms
    /// Every plugin, sorted by name then URI.
    public let plugins: [PluginSummary]
    /// The plugins left out because their bundles cannot be read safely (a port index lilv
    /// would allocate gigabytes for), each in one line with its fix.
    public let unreadable: [PluginRefusal]
    /// lilv's plugin of each URI (valid while the catalog lives).
    let handles: [String: OpaquePointer]

    /// Reads every installed bundle, or those in the folders of `searchPath` (as `LV2_PATH`
    /// gives them: folders separated by `:`).
    public convenience init(searchPath: String? = nil) {
        let world = lilv_world_new()!
        if let searchPath {
            let path = lilv_new_string(world, searchPath)
            lilv_world_set_option(world, LILV_OPTION_LV2_PATH, path)
            lilv_node_free(path)
        }
        lilv_world_load_all(world)
        self.init(world: world)
    }

    /// Reads the one bundle in the folder `bundle` (and LV2's own specifications): what an
    /// isolated plugin's child process reads, not every installed bundle.
    convenience init(bundle: String) {
        let world = lilv_world_new()!
        lilv_world_load_specifications(world)
        lilv_world_load_plugin_classes(world)
        let uri = lilv_new_file_uri(world, nil, bundle.hasSuffix("/") ? bundle : bundle + "/")
        lilv_world_load_bundle(world, uri)
        lilv_node_free(uri)
        self.init(world: world)
    }

    /// Reads the plugins of `world`, whose bundles are loaded.
    private init(world: OpaquePointer) {
        self.world = world
        terms = Terms(world)
        var summaries: [PluginSummary] = []
        var handles: [String: OpaquePointer] = [:]
        var unreadable: [PluginRefusal] = []
        let all = lilv_world_get_all_plugins(world)
        var iterator = lilv_plugins_begin(all)
        while !lilv_plugins_is_end(all, iterator) {
            if let plugin = lilv_plugins_get(all, iterator) {
                if let problem = Self.unreadablePorts(of: plugin, world: world) {
                    unreadable.append(problem)
                } else {
                    let summary = Self.summary(of: plugin, terms: terms, world: world)
                    summaries.append(summary)
                    handles[summary.uri] = plugin
                }
            }
            iterator = lilv_plugins_next(all, iterator)
        }
        plugins = summaries.sorted { ($0.name.lowercased(), $0.uri) < ($1.name.lowercased(), $1.uri) }
        self.handles = handles
        self.unreadable = unreadable
    }

    /// The folder of the bundle `plugin` is in, or nil when it is no local folder.
    func bundleFolder(of plugin: OpaquePointer) -> String? {
        guard let uri = lilv_plugin_get_bundle_uri(plugin), let text = lilv_node_as_uri(uri),
              let path = lilv_file_uri_parse(text, nil) else { return nil }
        defer { lilv_free(path) }
        return String(cString: path)
    }

    /// Reads the bundle in `folder` (again: a preset saved there since).
    func loadBundle(_ folder: String) {
        let uri = lilv_new_file_uri(world, nil, folder.hasSuffix("/") ? folder : folder + "/")
        defer { lilv_node_free(uri) }
        lilv_world_unload_bundle(world, uri)
        lilv_world_load_bundle(world, uri)
    }

    deinit {
        terms.free()
        lilv_world_free(world)
    }

    /// The plugins whose URI, name, class or kind contains `filter` (ignoring case); all for `nil`.
    public func plugins(matching filter: String?) -> [PluginSummary] {
        guard let filter = filter?.lowercased(), !filter.isEmpty else { return plugins }
        return plugins.filter { plugin in
            [plugin.uri, plugin.name, plugin.lv2Class, plugin.kind.rawValue].contains { $0.lowercased().contains(filter) }
        }
    }

    /// The plugin `name` names: its URI, its name (ignoring case), or a part of its URI or
    /// name that no other plugin's has.
    /// - Throws: `PluginLookupError` when none or several match.
    public func plugin(named name: String) throws(PluginLookupError) -> PluginSummary {
        if let exact = plugins.first(where: { $0.uri == name }) { return exact }
        let lowered = name.lowercased()
        let named = plugins.filter { $0.name.lowercased() == lowered }
        if named.count == 1 { return named[0] }
        let candidates = named.isEmpty
            ? plugins.filter { $0.name.lowercased().contains(lowered) || $0.uri.lowercased().contains(lowered) } : named
        guard candidates.count == 1 else {
            throw candidates.isEmpty ? .unknown(name) : .ambiguous(name, candidates: candidates.map(\.uri))
        }
        return candidates[0]
    }

    /// Everything of the plugin `name` names (`plugin(named:)`): ports, presets, features.
    /// - Throws: `PluginLookupError` when none or several match.
    public func info(_ name: String) throws(PluginLookupError) -> PluginInfo {
        let summary = try plugin(named: name)
        guard let plugin = handles[summary.uri] else { throw .unknown(name) }
        let ports = (0..<lilv_plugin_get_num_ports(plugin)).compactMap { index in
            lilv_plugin_get_port_by_index(plugin, index).map { Self.port($0, index: Int(index), of: plugin, terms: terms, world: world) }
        }
        return PluginInfo(plugin: summary, ports: ports, presets: Self.presets(of: plugin, terms: terms, world: world),
                          optionalFeatures: LilvText.uris(lilv_plugin_get_optional_features(plugin)).sorted().map(LV2Vocabulary.shortName),
                          files: Self.fileProperties(of: plugin, world: world).map { .init(name: $0.name, uri: $0.uri) })
    }
}
