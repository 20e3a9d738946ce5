import ArgumentParser
import Plugins

/// `midihub plugins`: the LV2 plugins installed on the system (lilv), like `lv2ls`, with
/// what each is to the hub; `midihub plugins info` shows one plugin's ports and presets.
struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List the LV2 plugins installed, or show one plugin's ports and presets.",
        discussion: """
            Reads the LV2 bundles on LV2_PATH (by default ~/.lv2, /usr/local/lib/lv2, \
            /usr/lib/lv2 and /usr/lib/x86_64-linux-gnu/lv2), as lv2ls does. KIND says what a \
            plugin is to the hub, from its ports: 'instrument' (MIDI in, audio out), 'effect' \
            (audio in and out), 'midi-effect' (MIDI in and out, no audio), 'generator' (audio \
            out only) or 'other'. AUDIO and MIDI count its inputs/outputs, CONTROLS its control \
            inputs (its parameters). A plugin that requires an LV2 feature midihub does not \
            provide has a line saying which. See docs/plugins.md.

            Examples:
              midihub plugins
              midihub plugins reverb
              midihub plugins --json | jq -r '.[] | select(.kind == "instrument") | .uri'
              midihub plugins info http://lv2plug.in/plugins/eg-amp
              midihub plugins info JX10 --json
            """,
        subcommands: [PluginsListCommand.self, PluginsInfoCommand.self],
        defaultSubcommand: PluginsListCommand.self
    )
}

/// `midihub plugins [FILTER]`.
struct PluginsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the installed LV2 plugins (the default).",
        discussion: """
            --json prints an array of plugin objects, one per line, keys sorted: uri, name, \
            kind, lv2Class, audioInputs, audioOutputs, midiInputs, midiOutputs, controlInputs, \
            controlOutputs, presets (how many), requires (the features it requires) and \
            missing (those midihub does not provide: empty when midihub can host it). A \
            bundle lilv cannot read safely is left out, with a warning on stderr naming it.
            """
    )

    @Argument(help: "Only plugins whose URI, name, class or kind contains this (ignoring case).")
    var filter: String?

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func run() throws {
        let catalog = PluginCatalog()
        for left in catalog.unreadable { printError("midihub: warning: \(left.problem) (fix: \(left.fix))") }
        let plugins = catalog.plugins(matching: filter)
        if json {
            try printJSON(plugins)
        } else if plugins.isEmpty {
            print(filter == nil ? "no LV2 plugins installed (Debian packages some as mda-lv2, x42-plugins, swh-lv2, fomp)"
                                : "no LV2 plugin matches '\(filter ?? "")'")
        } else {
            print(PluginTables.list(plugins))
        }
    }
}

/// `midihub plugins info URI|NAME`.
struct PluginsInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a plugin's ports (range, default, unit, choices), presets and features.",
        discussion: """
            Names the plugin by URI, by name (ignoring case), or by a part of either that no \
            other installed plugin's has ('eg-amp', 'jx10'). --json prints one object: \
            plugin (as 'plugins --json' lists it), ports, presets and optionalFeatures.
            """
    )

    @Argument(help: "The plugin's URI, name, or an unambiguous part of either.", completion: NameCompletion.plugins)
    var plugin: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let info: PluginInfo
        do {
            info = try PluginCatalog().info(plugin)
        } catch {
            throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput)
        }
        if json {
            try printJSON(object: info)
        } else {
            print(PluginTables.info(info))
        }
    }
}
