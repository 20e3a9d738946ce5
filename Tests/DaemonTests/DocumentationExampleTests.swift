import Foundation
import RenderCore
import SetupViews
import Testing
import TestSupport
@testable import Daemon
@testable import Hub

/// The code blocks of docs/patch-format.md and docs/rules.md, run against the real code:
/// patches load with the node registry the daemon itself uses (`NodeTypes.registry`),
/// rules parse with the real parser, and each example means what the page says it means.
@Suite struct DocumentationExampleTests {
    /// The registry `midihub serve`, `midihub nodes --patch` and the control API validate with.
    static let registry = NodeTypes.registry

    static func load(_ yaml: String, file: String) throws -> Patch {
        try Patch.parse(yaml: yaml, file: file, registry: registry)
    }

    /// The descriptor of the built-in type `name` (as patches write it).
    static func builtIn(_ name: String) throws -> NodeDescriptor {
        try #require(registry.type(named: name)?.descriptor, "the daemon has no node type '\(name)'")
    }

    // MARK: - patch-format.md

    @Test func patchFormatExamplesLoad() throws {
        let blocks = try Repository.blocks(in: "docs/patch-format.md")
        #expect(blocks.map(\.language) == ["yaml", "yaml", "text", "yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "yaml", "text"],
                "the page's blocks changed: update this test")
        // The others run in AudioRackGraphTests, the send example's own test and the VM tests.
        let yaml = blocks.filter { $0.marker?.hasSuffix(" patchFormatExamplesLoad") == true }
        try #require(yaml.count == 2)

        // keyboard → synth: every hardware keyboard plays the synth, heard on the default output.
        let first = try Self.load(yaml[0].text, file: yaml[0].description)
        let synth = try Self.builtIn("midihub synth")
        #expect(synth.kind == .instrument)
        #expect(first.graph.nodes == [
            GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware))),
            GraphNode(id: "synth", body: .unit(synth), parameters: ["master gain": -6]),
            GraphNode(id: "out", body: .output("default")),
        ])
        #expect(first.graph.routes == [Route("keys", "synth"), Route("synth", "out")])
        #expect(first.rules == [ConnectionRule(.connect, from: PortSelector(portClass: .hardware),
                                               to: PortSelector(client: NamePattern(glob: "midihub"), port: NamePattern(glob: "in")))])
        #expect(first.tempo == Patch.defaultTempo)

        // The split: notes up to B3 on channel 1 to `bass`, from C4 (middle C) on channel 2 to `lead`.
        let split = try Self.load(yaml[1].text, file: yaml[1].description)
        #expect(split.graph.node("split")?.body == .processor(.keyZones([KeyZone(low: 0, high: 59, channel: 1),
                                                                         KeyZone(low: 60, high: 127, channel: 2)])))
        #expect(split.graph.node("bass")?.body == .unit(synth))
        #expect(split.graph.node("lead")?.body == .unit(synth))
        #expect(split.graph.routes == [
            Route("keys", "split"), Route("split", "bass", channels: [1]), Route("split", "lead", channels: [2]),
            Route("bass", "out"), Route("lead", "out"),
        ])
        let toBass = try #require(split.graph.routes.first { $0.to == "bass" })
        #expect(toBass.passes(channel: 0) && !toBass.passes(channel: 1), "channels are 1-based in patches")
    }

    /// A split patch without mistakes; `patchFormatErrorsAreWhatLoadingSays` puts one in.
    static let splitPatch = """
        # keyboard split at middle C, the bass an octave up
        version: 1
        nodes:
          keys: { source: hardware:* }
          split:
            processor: zones
            zones:
              - { low: C-1, high: B3, channel: 1 }
              - { low: C4, high: G9, channel: 2 }
          up:
            processor: transpose
            parameters:
              semitones: 12
          bass:
            instrument: midihub synth
          lead:
            instrument: midihub synth
          out: { output: default }
        routes:
          - keys -> split
          - { from: split, to: up, channels: [1] }
          - up -> bass
          - { from: split, to: lead, channels: [2] }
          - bass -> out
          - lead -> out
        """

    /// The error lines of the page, each what loading `splitPatch` with one line changed says.
    @Test func patchFormatErrorsAreWhatLoadingSays() throws {
        let file = "patches/split.yaml"
        let patch = try Self.load(Self.splitPatch, file: file)
        #expect(patch.graph.node("up")?.parameters == ["semitones": 12])

        func loadingSays(line: Int, _ replacement: String) throws -> String {
            var lines = Self.splitPatch.components(separatedBy: "\n")
            try #require(lines.indices.contains(line - 1))
            lines[line - 1] = replacement
            do {
                _ = try Self.load(lines.joined(separator: "\n"), file: file)
                Issue.record("\(file) with line \(line) '\(replacement)' loaded")
                return ""
            } catch {
                return "\(error)"
            }
        }
        let said = [
            try loadingSays(line: 23, "  - split -> organ"),
            try loadingSays(line: 13, "      semitones: 99"),
            try loadingSays(line: 17, "    instrument: Reverb"),
        ]
        let blocks = try Repository.blocks(in: "docs/patch-format.md").filter { $0.marker?.hasSuffix(" patchFormatErrorsAreWhatLoadingSays") == true }
        try #require(blocks.count == 1)
        #expect(blocks[0].lines == said)
    }

    /// The send example: the SoundFont instrument's reverb and chorus outputs feed two buses
    /// that the output hears, wired so by the rack (`AudioRoutes`).
    @Test func patchFormatSendExampleLoads() throws {
        let block = try #require(try Repository.blocks(in: "docs/patch-format.md").first {
            $0.language == "yaml" && $0.text.contains("output: reverb")
        })
        let patch = try Self.load(block.text, file: block.description)
        let routes = patch.graph.audioRoutes
        #expect(routes.inputs["hall"] == [AudioRoutes.Source("gm", output: "reverb")])
        #expect(routes.inputs["ensemble"] == [AudioRoutes.Source("gm", output: "chorus")])
        #expect(Set(routes.toOutput) == ["gm", "hall", "ensemble"])
        #expect(routes.unheard.isEmpty)
    }

    /// The table of built-in node types is the registry's: every type, kind and parameter
    /// with its range, and nothing the daemon lacks — but the host's `bypass`, which every
    /// effect has (its own section says so) and nothing else.
    @Test func patchFormatBuiltInTypesAreTheDaemons() throws {
        let rows = try Self.tableRows(in: "docs/patch-format.md", under: "### Built-in instruments and effects")
        try #require(!rows.isEmpty)
        var documented: [String: (kind: String, parameters: [String: ClosedRange<Float>])] = [:]
        for row in rows {
            try #require(row.count == 3, "\(row)")
            let kind = Self.codeSpans(row[0]), name = Self.codeSpans(row[1])
            try #require(kind.count == 1 && name.count == 1, "\(row)")
            documented[name[0]] = (kind[0], Self.rangedNames(row[2]))
        }
        for type in Self.registry.types {
            #expect(type.parameters.contains(.bypass) == type.descriptor.kind.canBypass, "the bypass of '\(type.descriptor.name)'")
        }
        let real = Dictionary(uniqueKeysWithValues: Self.registry.types.map { type in
            (type.descriptor.name, (kind: type.descriptor.kind.rawValue,
                                    parameters: Dictionary(uniqueKeysWithValues: type.parameters.filter { $0 != .bypass }.map { ($0.name, $0.range) })))
        })
        #expect(documented.keys.sorted() == real.keys.sorted())
        for (name, type) in real {
            #expect(documented[name]?.kind == type.kind, "'\(name)' is \(type.kind)")
            #expect(documented[name]?.parameters == type.parameters, "the parameters of '\(name)'")
        }
    }

    /// The processor table names every real processor type and exactly its parameters.
    @Test func patchFormatProcessorsAreTheHubs() throws {
        let rows = try Self.tableRows(in: "docs/patch-format.md", under: "### Processors")
        #expect(rows.map { Self.codeSpans($0[0]).first ?? "" } == ProcessorConfig.typeNames)
        let zones = [KeyZone(low: 0, high: 59), KeyZone(low: 60, high: 127)]
        let configs: [ProcessorConfig] = [.transpose, .channelMap, .keyZones(zones), .velocityCurve,
                                          .controllerMap([]), .chord(intervals: [4, 7]), .arpeggiator]
        for row in rows {
            let type = Self.codeSpans(row[0]).first ?? ""
            let config = try #require(configs.first { $0.typeName == type }, "no processor '\(type)'")
            let infos = config.makeProcessor().parameterInfos
            let names = Self.codeSpans(row[1]).flatMap { Self.expand($0, zones: zones.count) }
            let numbered = Self.expandNumberedRuns(row[1])
            #expect(Set(names + numbered) == Set(infos.map(\.name)), "the parameters of '\(type)'")
            for (name, range) in Self.rangedNames(row[1]) {
                #expect(infos.first { $0.name == name }?.range == range, "the range of '\(type)' \(name)")
            }
        }
    }

    /// The example patches in patches/ (listed on the page) load with the daemon's registry
    /// and are what the page says they are.
    @Test func patchFormatExamplePatchesLoad() throws {
        let synth = try Self.builtIn("midihub synth")
        func load(_ name: String) throws -> Patch {
            try Patch.load(contentsOf: Repository.root.appendingPathComponent("patches/\(name)").path, registry: Self.registry)
        }
        let page = try Repository.text("docs/patch-format.md")
        for name in ["keyboard-synth.yaml", "keyboard-split.yaml", "arpeggio-fluidsynth.yaml"] {
            #expect(page.contains("`patches/\(name)`"))
        }

        // Every hardware keyboard plays the built-in synth.
        let keyboard = try load("keyboard-synth.yaml")
        #expect(keyboard.graph.node("keys")?.body == .source(PortSelector(portClass: .hardware)))
        #expect(keyboard.graph.node("synth")?.body == .unit(synth))
        #expect(keyboard.graph.paths(from: "keys", to: "out").nodes.contains("synth"))

        // One keyboard split at middle C into two instruments.
        let split = try load("keyboard-split.yaml")
        guard case .processor(.keyZones(let zones))? = split.graph.node("split")?.body else {
            Issue.record("keyboard-split.yaml has no zones processor")
            return
        }
        #expect(zones.map(\.high) == [59, 127] && zones.map(\.low) == [0, 60], "split at middle C (60)")
        #expect(split.graph.routes(from: "split").map(\.to) == ["bass", "lead"])
        #expect(split.graph.node("bass")?.body == .unit(synth) && split.graph.node("lead")?.body == .unit(synth))

        // A controller through an arpeggiator and a velocity curve into an external FluidSynth.
        let arpeggio = try load("arpeggio-fluidsynth.yaml")
        #expect(arpeggio.graph.topologicalOrder == ["pads", "arp", "softer", "fluid"])
        #expect(arpeggio.graph.node("arp")?.body == .processor(.arpeggiator))
        #expect(arpeggio.graph.node("softer")?.body == .processor(.velocityCurve))
        guard case .external(let fluid)? = arpeggio.graph.node("fluid")?.body else {
            Issue.record("arpeggio-fluidsynth.yaml has no external node 'fluid'")
            return
        }
        #expect(fluid.role == .instrument && fluid.port.client.matches("FLUID Synth (1234)"))
    }

    // MARK: - rules.md

    static func port(_ client: Int, _ port: Int, _ clientName: String, _ portName: String,
                     _ portClass: PortClass, _ direction: PortDirection) -> PortDescriptor {
        PortDescriptor(address: PortAddress(client: client, port: port), clientName: clientName, portName: portName,
                       portClass: portClass, direction: direction)
    }

    @Test func ruleExamplesParse() throws {
        let blocks = try Repository.blocks(in: "docs/rules.md")
        #expect(blocks.map(\.language) == ["rules", "yaml"], "the page's blocks changed: update this test")
        let rulesBlock = try #require(blocks.first { $0.language == "rules" })
        let rules = try ConnectionRule.parseList(rulesBlock.text)
        let hubIn = PortSelector(client: NamePattern(glob: "midihub"), port: NamePattern(glob: "in"))
        #expect(rules == [
            ConnectionRule(.connect, from: PortSelector(portClass: .hardware), to: hubIn),
            ConnectionRule(.disallow, from: PortSelector(portClass: .app), to: hubIn),
            ConnectionRule(.connect, from: PortSelector(client: NamePattern(glob: "VMPK*")), to: hubIn),
            ConnectionRule(.connect, from: PortSelector(client: NamePattern(glob: "midihub"), port: NamePattern(glob: "out")),
                           to: PortSelector(portClass: .app, client: try NamePattern(regex: "FLUID Synth.*"))),
            ConnectionRule(.connect, from: PortSelector(client: NamePattern(glob: "24"), port: NamePattern(glob: "0")),
                           to: PortSelector(client: NamePattern(glob: "128"), port: NamePattern(glob: "0"))),
            ConnectionRule(.connect, from: PortSelector(portClass: .hardware,
                                                        device: DeviceMatch(key: .serial, pattern: NamePattern(glob: "A1B2C3"))),
                           to: PortSelector(client: NamePattern(glob: "FLUID Synth"))),
            ConnectionRule(.connect, from: PortSelector(portClass: .hardware, port: NamePattern(glob: "*MIDI 1"),
                                                        device: DeviceMatch(key: .usb, pattern: NamePattern(glob: "usb-1-2"))),
                           to: hubIn),
        ])

        // What the comments say, decided by the last matching rule.
        let reconciler = Reconciler(rules: rules)
        let hub = Self.port(128, 0, "midihub", "in", .app, .input)
        let keyboard = Self.port(24, 0, "Launchkey MK3 25", "Launchkey MK3 25 MIDI In", .hardware, .duplex)
        let usbKeyboard = Self.port(28, 0, "microKEY-25", "microKEY-25 MIDI 1", .hardware, .duplex)
        let app = Self.port(131, 0, "Rosegarden", "out 1", .app, .output)
        let vmpk = Self.port(130, 0, "VMPK Output", "out", .app, .output)
        let hubOut = Self.port(128, 1, "midihub", "out", .app, .output)
        let fluid = Self.port(129, 0, "FLUID Synth (1234)", "Synth input port (1234:0)", .app, .input)
        let hardwareFluid = Self.port(20, 0, "FLUID Synth", "in", .hardware, .input)
        #expect(reconciler.wantsConnection(from: usbKeyboard, to: hub) == true, "every USB keyboard plays into the hub")
        #expect(reconciler.wantsConnection(from: app, to: hub) == false, "but no application does")
        #expect(reconciler.wantsConnection(from: vmpk, to: hub) == true, "except the virtual keyboard")
        #expect(reconciler.wantsConnection(from: hubOut, to: fluid) == true, "the hub's output feeds any FluidSynth")
        #expect(reconciler.wantsConnection(from: hubOut, to: hardwareFluid) == nil, "app: only matches applications")
        #expect(rules[4].matches(source: keyboard, destination: hub), "24:0 -> 128:0 by number")
        #expect(!rules[4].matches(source: usbKeyboard, destination: hub))
        #expect(reconciler.wantsConnection(from: usbKeyboard, to: fluid) == nil, "no rule matches: the pair is left alone")

        // Two keyboards of the same model: the serial names one, the socket the other.
        func twin(_ client: Int, usbPath: String, serial: String?) -> PortDescriptor {
            PortDescriptor(address: PortAddress(client: client, port: 0), clientName: "microKEY-25", portName: "microKEY-25 MIDI 1",
                           portClass: .hardware, direction: .duplex, usbPath: usbPath, serial: serial)
        }
        let serialTwin = twin(32, usbPath: "usb-1-3", serial: "A1B2C3")
        let socketTwin = twin(36, usbPath: "usb-1-2", serial: nil)
        let namedFluid = Self.port(129, 0, "FLUID Synth", "Synth input port", .app, .input)
        #expect(rules[5].matches(source: serialTwin, destination: namedFluid), "the keyboard with serial A1B2C3")
        #expect(!rules[5].matches(source: socketTwin, destination: namedFluid), "not its twin")
        #expect(rules[6].matches(source: socketTwin, destination: hub), "the keyboard in socket usb-1-2")
        #expect(!rules[6].matches(source: serialTwin, destination: hub), "not the one in usb-1-3")
        #expect(!rules[5].matches(source: keyboard, destination: namedFluid), "a port of no USB device")
        for rule in rules[5...] { #expect(try PortSelector(parsing: rule.source.description) == rule.source) }

        // The same first two rules, in a patch.
        let yaml = try #require(blocks.first { $0.language == "yaml" })
        let patch = try Self.load(yaml.text, file: yaml.description)
        #expect(patch.rules == Array(rules.prefix(2)))
    }

    // MARK: - Reading the page's tables

    /// The cells of the table that follows `heading` (header and separator rows left out).
    static func tableRows(in document: String, under heading: String) throws -> [[String]] {
        let lines = try Repository.text(document).components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: heading) else { return [] }
        let table = lines[(start + 1)...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }
        return table.dropFirst(2).map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// The `code` spans of a cell.
    static func codeSpans(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The names written as `` `name` LOW…HIGH `` (− or - for minus) with their ranges.
    static func rangedNames(_ cell: String) -> [String: ClosedRange<Float>] {
        let text = cell.replacingOccurrences(of: "−", with: "-")
        var result: [String: ClosedRange<Float>] = [:]
        for match in text.matches(of: /`([^`]+)` (-?[0-9.]+)…(-?[0-9.]+)/) {
            if let low = Float(match.output.2), let high = Float(match.output.3) {
                result[String(match.output.1)] = low...high
            }
        }
        return result
    }

    /// `zoneN.low` for each of `zones` zones; any other name as it is (but not the ends of
    /// a `` `ch1`…`ch16` `` run, which `expandNumberedRuns` gives).
    static func expand(_ name: String, zones: Int) -> [String] {
        if name.hasPrefix("zoneN.") { return (1...zones).map { "zone\($0)." + name.dropFirst("zoneN.".count) } }
        return [name]
    }

    /// Every name of the runs written `` `ch1`…`ch16` `` in `cell`.
    static func expandNumberedRuns(_ cell: String) -> [String] {
        cell.matches(of: /`([a-z]+)([0-9]+)`…`([a-z]+)([0-9]+)`/).flatMap { match -> [String] in
            guard match.output.1 == match.output.3, let first = Int(match.output.2), let last = Int(match.output.4),
                  first <= last else { return [] }
            return (first...last).map { "\(match.output.1)\($0)" }
        }
    }
}
