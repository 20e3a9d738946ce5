import ArgumentParser
import Control
import Plugins

/// `midihub preset NODE [PRESET] [--save LABEL]`: loads an LV2 preset into a plugin node of the
/// running daemon, saves the node's sound as one, or lists the node's presets.
struct PresetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preset",
        abstract: "Load a preset into a plugin node, save its sound as one, or list its presets.",
        discussion: """
            NODE is an LV2 plugin node of the running daemon. With PRESET (a label, ignoring \
            case, or a URI), the daemon sets every value of the preset at once, on one audio \
            frame (held notes go on sounding). With --save LABEL, the node's sound — its \
            parameters and the plugin's own state — is saved as a preset where every LV2 host \
            finds it (~/.lv2, or the first folder of LV2_PATH); saving a label again replaces \
            it. With neither, lists the presets of the node's plugin. See docs/plugins.md#presets.

            Examples:
              midihub preset piano
              midihub preset piano Mellow
              midihub preset piano --save "Soft keys"
            """
    )

    @Argument(help: "The plugin node.")
    var node: String

    @Argument(help: "The preset to load: its label (ignoring case) or its URI.")
    var preset: String?

    @Option(help: "Save the node's sound as a preset with this label instead.")
    var save: String?

    @Flag(help: "JSON: the node after the load (as nodes.list shows it), the preset saved, or the list of presets.")
    var json = false

    func validate() throws {
        if preset != nil, save != nil {
            throw ValidationError("a preset is loaded or saved, not both (fix: drop PRESET, or drop --save)")
        }
    }

    func run() throws {
        if let preset {
            let loaded = try SetupCommandSupport.askDaemon("loading a preset", client: "midihub preset") {
                try $0.loadPreset(preset, into: node)
            }
            if json { return try printJSON(object: loaded) }
            print("\(node): preset '\(preset)' loaded")
            NodesCommand.printParameters(of: loaded)
        } else if let save {
            let saved = try SetupCommandSupport.askDaemon("saving a preset", client: "midihub preset") {
                try $0.savePreset(of: node, label: save)
            }
            if json { return try printJSON(object: saved) }
            print("\(node): preset '\(saved.label)' saved in \(saved.bundle)")
        } else {
            try listPresets()
        }
    }

    /// The presets of the node's plugin, from the bundles on this machine.
    private func listPresets() throws {
        let nodes = try SetupCommandSupport.askDaemon("listing a node's presets", client: "midihub preset") { try $0.nodes() }
        guard let found = nodes.first(where: { $0.id == node }) else {
            throw CLIError("the daemon has no node '\(node)'", fix: "run 'midihub nodes' to see its nodes", exitCode: CLIError.badInput)
        }
        guard let uri = found.plugin else {
            throw CLIError("node '\(node)' (\(found.kind)) is no LV2 plugin: presets are a plugin's",
                           fix: "name a plugin node ('midihub nodes' shows each node's plugin)", exitCode: CLIError.badInput)
        }
        let presets: [PluginPreset]
        do {
            presets = try PluginCatalog().info(uri).presets
        } catch {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
        if json { return try printJSON(presets) }
        if presets.isEmpty { print("\(node): its plugin has no presets (save one with --save LABEL)") }
        for preset in presets { print("\(preset.label)  \(preset.uri)") }
    }
}
