import Foundation
import Hub
import HubTestSupport
import MIDICore
import Plugins
import RenderCore
import TestSupport
import Testing

/// A patch's `plugin:` nodes and a saved state's, against the plugins Debian installs.
@Suite struct PluginNodesInPatchesTests {
    static let registry = NodeRegistry().with(plugins: InstalledPlugins())

    @Test func aPatchNamesAPluginByNameOrURIWithItsParametersBySymbol() throws {
        let patch = try Patch.parse(yaml: """
            nodes:
              piano: { plugin: MDA ePiano, parameters: { treble_boost: 0.7 } }
              amp: { plugin: "http://lv2plug.in/plugins/eg-amp", parameters: { gain: -6 } }
            routes:
              - piano -> amp
            """, file: "<patch>", registry: Self.registry)
        let piano = try #require(patch.graph.node("piano"))
        guard case .unit(let descriptor) = piano.body else { Issue.record("not a unit: \(piano.body)"); return }
        #expect((descriptor.kind, descriptor.plugin?.uri) == (.instrument, "http://drobilla.net/plugins/mda/EPiano"))
        #expect(piano.parameters == ["treble_boost": 0.7])
        #expect(patch.graph.node("amp")?.body.kindName == "effect")
        #expect(Self.registry.parameters(of: piano.body)?.count == 12, "its control inputs, from its descriptor")
    }

    @Test func aPresetSetsTheNodesParametersWhichItsOwnOverride() throws {
        let patch = try Patch.parse(yaml: """
            nodes:
              brass: { plugin: mda JX10, preset: brass section, parameters: { noise: 0.5 } }
            """, file: "<patch>", registry: Self.registry)
        let values = try #require(patch.graph.node("brass")).parameters
        let descriptor = try Self.registry.plugin("mda JX10")
        let preset = try Self.registry.presetValues(of: descriptor, preset: "Brass Section")
        #expect(preset.count == descriptor.plugin?.parameters.count, "every control input of JX10's preset")
        let defaults = Dictionary(uniqueKeysWithValues: (descriptor.plugin?.parameters ?? []).map { ($0.name, $0.defaultValue) })
        #expect(preset != defaults, "the preset is a sound of its own")
        #expect(values == preset.merging(["noise": 0.5]) { _, own in own })
        #expect(throws: PluginRefusal.self) { try Self.registry.presetValues(of: descriptor, preset: "no such sound") }
    }

    @Test func aSceneLoadsAPluginsPresetAndAProgramChangeSwitchesToIt() throws {
        // docs/plugins.md's scene example, as written.
        let blocks = try Repository.blocks(testedBy: "Tests/PluginsTests/PluginNodesInPatchesTests.swift")
            .filter { $0.marker?.hasSuffix(" aSceneLoadsAPluginsPresetAndAProgramChangeSwitchesToIt") == true }
        try #require(blocks.count == 1, "docs/plugins.md marks no scene example for this test")
        let patch = try Patch.parse(yaml: blocks[0].text, file: blocks[0].description, registry: Self.registry)
        let descriptor = try Self.registry.plugin("mda JX10")
        let brass = try #require(patch.scenes.first { $0.name == "brass" })
        let preset = try Self.registry.presetValues(of: descriptor, preset: "Brass Section")
        #expect(brass.program == 1)
        #expect(Dictionary(uniqueKeysWithValues: brass.values.map { ($0.parameter, $0.value) })
            == preset.merging(["noise": 0.5]) { _, own in own }, "the preset's values, `set:` over them")
        #expect(brass.values.allSatisfy { $0.node == "jx" })
        let strings = try #require(patch.scenes.first { $0.name == "strings" })
        #expect(strings.values.count == descriptor.plugin?.parameters.count)
        #expect(Dictionary(uniqueKeysWithValues: strings.values.map { ($0.parameter, $0.value) }) != preset)
        do {
            _ = try Patch.parse(yaml: "nodes:\n  up: { processor: transpose }\nscenes:\n  s: { presets: { up: x } }\n", file: "<patch>",
                                registry: Self.registry)
            Issue.record("a preset on a processor was taken")
        } catch {
            #expect(error.description.hasPrefix("<patch>:4:19: 'up' is no LV2 plugin node of this patch"))
        }
    }

    @Test func aBadPluginNodeIsRefusedAtItsLineNamingTheProblem() throws {
        func refusal(_ yaml: String) -> String {
            do {
                _ = try Patch.parse(yaml: yaml, file: "<patch>", registry: Self.registry)
                return "parsed"
            } catch {
                return error.description
            }
        }
        #expect(refusal("nodes:\n  inv: { plugin: Control Invert }\n").hasPrefix(
            "<patch>:2:18: LV2 plugin 'Control Invert' has neither audio nor MIDI ports, so it plays no part in a graph"))
        #expect(refusal("nodes:\n  x: { plugin: no-such-plugin }\n").hasPrefix("<patch>:2:16: no LV2 plugin 'no-such-plugin' is installed"))
        #expect(refusal("nodes:\n  amp: { plugin: eg-amp, parameters: { gain: 99 } }\n").contains("gain"))
        #expect(refusal("nodes:\n  amp: { plugin: eg-amp }\n") == "parsed")
        #expect(refusal("nodes:\n  amp: { plugin: eg-amp, isolate: maybe }\n") == "<patch>:2:35: `isolate:` is true or false "
            + "(fix: write `isolate: true` to run the plugin in a process of its own)")
        #expect(refusal("nodes:\n  s: { instrument: midihub synth, isolate: true }\n") != "parsed", "only plugin nodes are isolated")
        let noPlugins = (try? Patch.parse(yaml: "nodes:\n  amp: { plugin: eg-amp }\n", file: "<patch>", registry: NodeRegistry()))
        #expect(noPlugins == nil, "a registry without plugins refuses them")
    }

    @Test func aSavedStateKeepsAPluginNodeByURIAndReadsItAgain() throws {
        let patch = try Patch.parse(yaml: "nodes:\n  amp: { plugin: eg-amp, isolate: true, parameters: { gain: -6 } }\n",
                                    file: "<patch>", registry: Self.registry)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-state-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = StateStore(path: folder.appendingPathComponent("state.json").path)
        try store.save(HubState(graph: patch.graph))
        let restored = try #require(try store.load())
        let amp = try #require(restored.graph.node("amp"))
        #expect(Self.registry.parameters(of: amp.body) == [ParameterInfo.bypass], "read back: the URI, not the ports")
        let (graph, refusals) = restored.graph.resolvingPlugins(with: Self.registry)
        #expect(refusals.isEmpty)
        #expect(graph == patch.graph, "the same node, its parameters read from the plugin again, its value kept")
        guard case .unit(let descriptor)? = graph.node("amp")?.body else { Issue.record("no amp unit"); return }
        #expect(descriptor.isolated == true, "its `isolate:` kept")
        #expect(Self.registry.parameters(of: try #require(graph.node("amp")).body)?.first?.name == "gain")
        let (_, gone) = restored.graph.resolvingPlugins(with: NodeRegistry())
        #expect(gone.map(\.problem) == ["node 'amp': LV2 plugins are not available here"])
    }
}

/// docs/plugins.md's MIDI effects example: LV2 MIDI effects between the keyboard and an LV2
/// instrument, routed by the hub's core.
@Suite struct PluginMIDIEffectsInPatchesTests {
    @Test func aMIDIEffectPlaysItsNotesIntoTheInstrument() throws {
        let blocks = try Repository.blocks(testedBy: "Tests/PluginsTests/PluginNodesInPatchesTests.swift")
            .filter { $0.marker?.hasSuffix(" aMIDIEffectPlaysItsNotesIntoTheInstrument") == true }
        try #require(blocks.count == 1, "docs/plugins.md marks no MIDI effects example for this test")
        let patch = try Patch.parse(yaml: blocks[0].text, file: blocks[0].description, registry: PluginNodesInPatchesTests.registry)
        #expect(patch.graph.node("fifths")?.body.kindName == "midiProcessor")
        var core = try HubCore(state: HubState(graph: patch.graph, rules: patch.rules, tempo: 120),
                               registry: PluginNodesInPatchesTests.registry)
        var sink = RecordingSink()
        _ = try core.handle(.portsListed([RouterFixtures.keyboard], directSenders: [], connections: [], changed: false, at: .zero),
                            into: &sink)
        let played = HostTime.zero + HostDuration(seconds: 1)
        _ = try core.handle(.midi(.noteOn(channel: 0, note: 60, velocity: 100), from: RouterFixtures.keyboard.address, at: played),
                            into: &sink)
        #expect(Set(sink.messages(at: "piano")) == [.noteOn(channel: 0, note: 72, velocity: 100), .noteOn(channel: 0, note: 67, velocity: 100)])
        #expect(sink.delivered.allSatisfy { $0.event.time == played }, "on the played note's frame")
        #expect(core.snapshot.processorParameters("up")?.infos.first { $0.name == "k0" } != nil, "its parameters, as a processor's")
    }
}
