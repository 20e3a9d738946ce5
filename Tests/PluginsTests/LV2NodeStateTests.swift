import Foundation
import Hub
import Plugins
import RenderCore
import Testing

/// A plugin's own state (beyond its control values): read from the running instance as lilv's
/// Turtle text, and restored from it into a new instance before it first runs — eg-sampler's
/// sample file (lv2-examples), which its state names.
@Suite struct LV2NodeStateTests {
    static let plugins = InstalledPlugins(synchronousWork: true)
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 512)

    func sampler(state: String? = nil) throws -> LV2Node {
        var descriptor = try Self.plugins.descriptor(for: "http://lv2plug.in/plugins/eg-sampler")
        descriptor.pluginState = state
        let node = try #require(Self.plugins.makeNode(descriptor) as? LV2Node)
        node.prepare(format: format)
        return node
    }

    /// Two blocks of a note through `node`, the left side.
    func note(_ node: LV2Node) -> [Float] {
        let bus = AudioBuffer(channels: 2, capacity: 512)
        var out: [Float] = []
        for block in 0..<2 {
            bus.bus.clear(frames: 512)
            let events: [RenderEvent] = block == 0 ? [.noteOn(channel: 0, note: 60, velocity: 127, frame: 0)] : []
            events.withUnsafeBufferPointer { node.process(ProcessContext(frames: 512, events: $0, bus: bus.bus, host: HostSync())) }
            out += UnsafeBufferPointer(start: bus.left, count: 512)
        }
        return out
    }

    /// A WAV file of a 440 Hz sine, 16-bit mono at 48 kHz, `seconds` long.
    static func tone(seconds: Double) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-tone-\(UUID().uuidString).wav")
        let frames = Int(48_000 * seconds)
        var data = Data()
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); put(UInt32(36 + frames * 2)); data.append(contentsOf: Array("WAVEfmt ".utf8))
        put(UInt32(16)); put(UInt16(1)); put(UInt16(1)); put(UInt32(48_000)); put(UInt32(96_000)); put(UInt16(2)); put(UInt16(16))
        data.append(contentsOf: Array("data".utf8)); put(UInt32(frames * 2))
        for frame in 0..<frames { put(Int16(sin(2 * Double.pi * 440 * Double(frame) / 48_000) * 16_000)) }
        try data.write(to: url)
        return url
    }

    @Test func theRunningInstancesStateNamesItsSample() throws {
        let text = try #require(try sampler().ownState())
        #expect(text.contains("eg-sampler#sample"))
        #expect(text.contains("click.wav"))
        let amp = try #require(Self.plugins.makeNode(try Self.plugins.descriptor(for: "eg-amp")))
        amp.prepare(format: format)
        #expect(amp.ownState() == nil, "eg-amp keeps no state of its own")
    }

    @Test func aNewInstanceRestoresTheStateItIsGiven() throws {
        let tone = try Self.tone(seconds: 0.5)
        defer { try? FileManager.default.removeItem(at: tone) }
        let clickPath = "/usr/lib/lv2/eg-sampler.lv2/click.wav"
        let defaultState = try #require(try sampler().ownState())
        #expect(defaultState.contains(clickPath))
        let toneState = defaultState.replacingOccurrences(of: clickPath, with: tone.path)
        let restored = try sampler(state: toneState)
        #expect(restored.ownState()?.contains(tone.path) == true, "the restored instance saves the tone as its sample")
        let click = note(try sampler()), sine = note(restored)
        // The click is over within a few hundred frames; the tone sounds through both blocks.
        #expect(click[600...].allSatisfy { abs($0) < 1e-3 })
        #expect(sine[600...].contains { abs($0) > 0.1 })
        let unreadable = try sampler(state: "this is no Turtle")
        #expect(note(unreadable)[..<600] == click[..<600], "a state lilv cannot read leaves the default one")
        // A state with no `pset:Preset` subject: lilv alone would dereference a null subject.
        let untyped = try sampler(state: "<urn:x> <http://lv2plug.in/ns/ext/state#state> [ <http://lv2plug.in/plugins/eg-sampler#sample> <file:///x> ] .")
        #expect(note(untyped)[..<600] == click[..<600])
    }
}

/// A preset that holds a plugin's own state: saved from a node whose sampler plays a tone,
/// found by its label, given to a patch's node with `preset:`, kept through the daemon's
/// state file (`HubState`'s record) with the plugin's URI.
@Suite struct PluginOwnStatePresetTests {
    @Test func aPresetsOwnStateReachesAPatchNodeAndTheStateFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let tone = try LV2NodeStateTests.tone(seconds: 0.2)
        defer { try? FileManager.default.removeItem(at: tone) }
        let plugins = InstalledPlugins(searchPath: "\(folder.path):/usr/lib/lv2", synchronousWork: true)
        var descriptor = try plugins.descriptor(for: "eg-sampler")
        let clickState = try #require(LV2NodeStateTests.plugins.makeNode(descriptor).flatMap { node in
            node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
            return node.ownState()
        })
        descriptor.pluginState = clickState.replacingOccurrences(of: "/usr/lib/lv2/eg-sampler.lv2/click.wav", with: tone.path)
        let node = try #require(plugins.makeNode(descriptor))
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
        _ = try node.savePreset(label: "Tone", values: [:], in: folder.path)

        descriptor.pluginState = nil
        #expect(try plugins.presetState(of: descriptor, preset: "tone")?.contains(tone.path) == true)
        #expect(try plugins.presetState(of: try plugins.descriptor(for: "mda JX10"), preset: "Brass Section") == nil,
                "a preset of control values only")

        let registry = NodeRegistry().with(plugins: plugins)
        let patch = try Patch.parse(yaml: "nodes: { sampler: { plugin: eg-sampler, preset: Tone } }", file: "<patch>", registry: registry)
        guard case .unit(let given)? = patch.graph.node("sampler")?.body else { Issue.record("no sampler node"); return }
        #expect(given.pluginState?.contains(tone.path) == true)

        var state = HubState.defaults
        state.graph = patch.graph
        let reread = try HubState(decoding: try state.encoded(), path: "<state>")
        let (resolved, refusals) = reread.graph.resolvingPlugins(with: registry)
        guard case .unit(let restored)? = resolved.node("sampler")?.body else { Issue.record("no sampler node after the state file"); return }
        #expect(refusals.isEmpty)
        #expect(restored.pluginState == given.pluginState)
        #expect(restored.plugin?.uri == "http://lv2plug.in/plugins/eg-sampler")
    }
}

/// A file property set while the plugin plays (`setFile`): a `patch:Set` at the next block's
/// start, which eg-sampler loads on its worker; its own state then names the file.
@Suite struct PluginFilePropertyTests {
    @Test func aSamplersSampleIsSetWhileItPlays() throws {
        let tone = try LV2NodeStateTests.tone(seconds: 0.5)
        defer { try? FileManager.default.removeItem(at: tone) }
        let tests = LV2NodeStateTests()
        let sampler = try tests.sampler()
        #expect(sampler.descriptor.plugin?.files == [PluginFileProperty(uri: "http://lv2plug.in/plugins/eg-sampler#sample", name: "sample")])
        let click = tests.note(sampler)
        try sampler.setFile("sample", to: tone.path)
        _ = tests.note(sampler)  // the set arrives, the worker loads the file
        let sine = tests.note(sampler)
        #expect(click[600...].allSatisfy { abs($0) < 1e-3 })
        #expect(sine[600...].contains { abs($0) > 0.1 }, "the note plays the tone")
        #expect(sampler.ownState()?.contains(tone.path) == true)

        #expect(throws: PluginRefusal.self) { try sampler.setFile("impulse", to: tone.path) }
        #expect(throws: PluginRefusal.self) { try sampler.setFile("sample", to: "relative.wav") }
        let missing = #expect(throws: PluginRefusal.self) { try sampler.setFile("sample", to: "/no/such/file.wav") }
        #expect(missing?.problem == "no file /no/such/file.wav for 'sample' of 'Exampler'")
    }
}

/// A file property given in a patch (`parameters: { sample: tone.wav }`, relative to the
/// patch's folder): the node's state names it, and the plugin restores it before it plays.
@Suite struct PluginFileInPatchTests {
    @Test func aPatchGivesASamplerItsSample() throws {
        let tone = try LV2NodeStateTests.tone(seconds: 0.5)
        defer { try? FileManager.default.removeItem(at: tone) }
        let registry = NodeRegistry().with(plugins: LV2NodeStateTests.plugins)
        let patchFile = tone.deletingLastPathComponent().appendingPathComponent("patch.yaml").path
        let patch = try Patch.parse(yaml: "nodes: { sampler: { plugin: eg-sampler, parameters: { sample: \(tone.lastPathComponent) } } }",
                                    file: patchFile, registry: registry)
        guard case .unit(let descriptor)? = patch.graph.node("sampler")?.body else { Issue.record("no sampler node"); return }
        #expect(descriptor.pluginState?.contains(tone.absoluteString) == true)
        #expect(patch.graph.node("sampler")?.parameters == [:])
        let tests = LV2NodeStateTests()
        let sine = tests.note(try tests.sampler(state: descriptor.pluginState))
        #expect(sine[600...].contains { abs($0) > 0.1 }, "the note plays the patch's sample")

        let missing = #expect(throws: PatchError.self) {
            try Patch.parse(yaml: "nodes: { sampler: { plugin: eg-sampler, parameters: { sample: no-such.wav } } }",
                            file: patchFile, registry: registry)
        }
        #expect(missing?.reason.hasPrefix("node 'sampler' parameter 'sample': no file ") == true, "\(String(describing: missing))")
        let unknown = #expect(throws: PatchError.self) {
            try Patch.parse(yaml: "nodes: { sampler: { plugin: eg-sampler, parameters: { volume: 1 } } }", file: patchFile, registry: registry)
        }
        #expect(unknown?.fix == "use one of sample")
    }
}
