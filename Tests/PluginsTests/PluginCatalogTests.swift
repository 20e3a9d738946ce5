import Foundation
import Plugins
import TestSupport
import Testing

/// The catalog against the plugins Debian installs (scripts/install-deps: lv2-examples,
/// mda-lv2, swh-lv2, fomp, x42-plugins, dragonfly-reverb-lv2) and lilv's own `lv2ls`.
@Suite struct PluginCatalogTests {
    let catalog = PluginCatalog()

    @Test func theCatalogListsTheSamePluginsAsLv2ls() throws {
        let lv2ls = Process()
        lv2ls.executableURL = URL(fileURLWithPath: "/usr/bin/lv2ls")
        let output = Pipe()
        lv2ls.standardOutput = output
        try lv2ls.run()
        let listed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        lv2ls.waitUntilExit()
        let uris = Set(listed.split(separator: "\n").map(String.init))
        #expect(uris.count > 200, "Debian's plugins are installed")
        #expect(Set(catalog.plugins.map(\.uri)) == uris)
    }

    @Test func eachKindFollowsFromThePorts() throws {
        let jx10 = try catalog.plugin(named: "http://drobilla.net/plugins/mda/JX10")
        #expect(jx10.kind == .instrument)
        #expect((jx10.midiInputs, jx10.audioInputs, jx10.audioOutputs) == (1, 0, 2))
        #expect(try catalog.plugin(named: "http://lv2plug.in/plugins/eg-amp").kind == .effect)
        #expect(try catalog.plugin(named: "http://lv2plug.in/plugins/eg-fifths").kind == .midiEffect)
        let filter = try catalog.plugin(named: "http://gareus.org/oss/lv2/midifilter#channelfilter")
        #expect(filter.kind == .midiEffect)
        #expect((filter.midiInputs, filter.midiOutputs) == (1, 1))
        #expect(try catalog.plugin(named: "http://drobilla.net/plugins/fomp/reverb").kind == .effect)
    }

    @Test func aControlPortHasItsRangeDefaultUnitAndNamedValues() throws {
        let amp = try catalog.info("eg-amp")
        let gain = try #require(amp.ports.first { $0.symbol == "gain" })
        #expect((gain.direction, gain.type) == (.input, .control))
        #expect((gain.minimum, gain.maximum, gain.defaultValue) == (-90, 24, 0))
        #expect(gain.unit == "dB")
        #expect(gain.choices.map(\.label) == ["-10", "-5", "0", "+5"])
        #expect(amp.ports.map(\.type) == [.control, .audio, .audio])
        #expect(amp.optionalFeatures == ["lv2:hardRTCapable"])
    }

    @Test func presetsAreListedWithTheirLabels() throws {
        let jx10 = try catalog.info("JX10")
        #expect(jx10.plugin.presets == jx10.presets.count)
        #expect(jx10.presets.count > 10)
        #expect(jx10.presets.contains { $0.label == "Brass Section" && $0.uri.hasPrefix("http://drobilla.net/plugins/mda/presets#") })
    }

    @Test func thePluginsThatRequireFeaturesGetThemFromMidihub() throws {
        let requiring = catalog.plugins.filter { !$0.requires.isEmpty }
        #expect(requiring.contains { $0.requires.contains("options:options") })
        #expect(requiring.contains { $0.requires.contains("worker:schedule") })
        #expect(catalog.plugins.allSatisfy { $0.missing.isEmpty }, "every plugin Debian installs here can be hosted")
        let dragonfly = try catalog.plugin(named: "urn:dragonfly:plate")
        #expect(dragonfly.requires.contains("options:options"))
        #expect(dragonfly.refusal == nil)
    }

    @Test func aNameMustNameOnePlugin() throws {
        #expect(throws: PluginLookupError.unknown("no-such-plugin")) { try catalog.plugin(named: "no-such-plugin") }
        #expect(throws: PluginLookupError.self) { try catalog.plugin(named: "mda") }
        #expect(try catalog.plugin(named: "mda jx10").uri == "http://drobilla.net/plugins/mda/JX10")
        #expect(PluginLookupError.unknown("x").description.hasPrefix("no LV2 plugin 'x' is installed (fix: "))
        do {
            _ = try catalog.plugin(named: "eg-scope")
            Issue.record("eg-scope names the mono and the stereo scope")
        } catch {
            #expect(error == .ambiguous("eg-scope", candidates: ["http://lv2plug.in/plugins/eg-scope#Mono",
                                                                 "http://lv2plug.in/plugins/eg-scope#Stereo"]))
        }
    }

    /// Writes a bundle of the test's own (Turtle only: discovery loads no binary) declaring
    /// `<urn:midihub:test:teleport>` as `description` says, and reads it.
    static func catalog(of description: String, in folder: URL) throws -> PluginCatalog {
        let bundle = folder.appendingPathComponent("teleport.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        try """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:midihub:test:teleport> a lv2:Plugin ; lv2:binary <teleport.so> ; rdfs:seeAlso <teleport.ttl> .
            """.write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        try ("""
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix doap: <http://usefulinc.com/ns/doap#> .
            @prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .

            """ + description).write(to: bundle.appendingPathComponent("teleport.ttl"), atomically: true, encoding: .utf8)
        return PluginCatalog(searchPath: folder.path)
    }

    static func scratchFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("midihub-lv2-\(UUID().uuidString)")
    }

    /// Scale points without a value or a label are left out. Found by FuzzPluginBundle: lilv's
    /// own reader asserts (and aborts) when no point of a port is whole.
    @Test func scalePointsWithoutAValueOrALabelAreLeftOut() throws {
        let folder = Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Self.catalog(of: """
            <urn:midihub:test:teleport> a lv2:Plugin ; doap:name "Teleporter" ;
                lv2:port [ a lv2:ControlPort, lv2:InputPort ; lv2:index 0 ; lv2:symbol "mode" ; lv2:name "Mode" ;
                           lv2:scalePoint [ rdfs:label "near" ] , [ rdfs:label "far" ; rdf:value 1.0 ] , [ rdf:value 2.0 ] ] ,
                         [ a lv2:ControlPort, lv2:InputPort ; lv2:index 1 ; lv2:symbol "broken" ; lv2:name "Broken" ;
                           lv2:scalePoint [ rdfs:label "nowhere" ] ] .
            """, in: folder)
        let info = try catalog.info("urn:midihub:test:teleport")
        #expect(info.ports.map { $0.choices.map(\.label) } == [["far"], []])
        #expect(info.ports[0].choices.map(\.value) == [1])
    }

    /// A bundle whose port index would have lilv allocate and clear gigabytes (the fuzz
    /// target's find, fuzz/corpus/lv2/huge-port-index.ttl) is left out, said in one line.
    @Test func aPluginWithAHugePortIndexIsLeftOutInOneLine() throws {
        let folder = Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Self.catalog(of: """
            <urn:midihub:test:teleport> a lv2:Plugin ; doap:name "Huge" ;
                lv2:port [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 4294967295 ; lv2:symbol "out" ; lv2:name "Out" ] .
            """, in: folder)
        #expect(catalog.plugins.isEmpty)
        #expect(catalog.unreadable.map(\.problem)
            == ["LV2 plugin 'urn:midihub:test:teleport' declares a port index 4294967295, beyond 4095; it is left out"])
    }

    /// A bundle of the test's own that requires a feature no host has.
    @Test func aPluginThatRequiresAMissingFeatureIsRefusedInOneLine() throws {
        let folder = Self.scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = try Self.catalog(of: """
            <urn:midihub:test:teleport> a lv2:Plugin, lv2:InstrumentPlugin ; doap:name "Teleporter" ;
                lv2:requiredFeature <http://lv2plug.in/ns/ext/urid#map>, <urn:midihub:test:teleport-feature> ;
                lv2:port [ a lv2:AudioPort, lv2:OutputPort ; lv2:index 0 ; lv2:symbol "out" ; lv2:name "Out" ] .
            """, in: folder)
        let plugin = try #require(catalog.plugins.first)
        #expect(catalog.plugins.count == 1)
        #expect((plugin.name, plugin.kind) == ("Teleporter", .generator))
        #expect(plugin.requires == ["urid:map", "urn:midihub:test:teleport-feature"])
        #expect(plugin.missing == ["urn:midihub:test:teleport-feature"])
        let refused = try #require(plugin.refusal)
        let refusal = "\(refused.problem) (fix: \(refused.fix))"
        #expect(refusal == "LV2 plugin 'Teleporter' requires urn:midihub:test:teleport-feature, which midihub does not "
            + "provide (fix: use another plugin; 'midihub plugins' lists those it can host)")
        // docs/plugins.md shows the line as `plugins info` prints it.
        let doc = try Repository.blocks(testedBy: "Tests/PluginsTests/PluginCatalogTests.swift")
        #expect(doc.flatMap(\.lines).contains("cannot host: " + refusal))
    }
}
