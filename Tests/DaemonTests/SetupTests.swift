import ALSA
import Control
import Foundation
import Hub
import SetupViews
import SoundFont
import Synth
import HubTestSupport
import Testing
@testable import Daemon

@Suite struct SetupTests {
    @Test func embeddedDefaultConnectsHardwareButNotMidiThroughToTheSynth() {
        let patch = DefaultSetup.patch
        #expect(patch.graph.routes.map(\.description) == ["keys -> synth", "synth -> out"])
        let reconciler = Reconciler(rules: patch.rules)
        let hub = PortDescriptor(address: PortAddress(client: 128, port: 0), clientName: "midihub", portName: "in",
                                 portClass: .app, direction: .input)
        let through = PortDescriptor(address: PortAddress(client: 14, port: 0), clientName: "Midi Through",
                                     portName: "Midi Through Port-0", portClass: .hardware, direction: .duplex)
        #expect(reconciler.wantsConnection(from: RouterFixtures.keyboard, to: hub) == true)
        #expect(reconciler.wantsConnection(from: through, to: hub) == false)
        #expect(reconciler.wantsConnection(from: RouterFixtures.app, to: hub) == nil)
        let recorder = PortDescriptor(address: PortAddress(client: 129, port: 0), clientName: "arecordmidi",
                                      portName: "arecordmidi", portClass: .app, direction: .input)
        #expect(reconciler.wantsConnection(from: through, to: recorder) == nil, "another program's subscription is not the hub's")
        let plan = reconciler.plan(ports: [through, recorder, hub], current: [Connection(through.address, recorder.address)])
        #expect(plan.toBreak.isEmpty && plan.toMake.isEmpty)
    }

    @Test func aStateWithTheFormerDefaultRulesGetsTodaysAndAnyOtherIsKept() throws {
        let former = try ConnectionRule.parseList("""
            connect hardware:* -> "midihub:in"
            disallow "Midi Through" -> *
            """)
        #expect(DefaultSetup.rulesReplacingFormerDefault(former) == DefaultSetup.patch.rules)
        let own = try ConnectionRule.parseList(#"disallow "Midi Through" -> *"#)
        #expect(DefaultSetup.rulesReplacingFormerDefault(own) == nil, "a user's own rule stays")
        #expect(DefaultSetup.rulesReplacingFormerDefault(DefaultSetup.patch.rules) == nil)
    }

    @Test func theRoutingFixturesSynthIsTheCatalogs() {
        #expect(NodeTypes.registry.type(named: "midihub synth")?.descriptor == RouterFixtures.synthDescriptor)
    }

    @Test func rulesRoundTripThroughTheirWireForm() throws {
        let rules = try ConnectionRule.parseList("""
            connect hardware:* -> "midihub:in"
            disallow app:"/FLUID.*/:*" -> *
            """)
        let summaries = GraphSummaries.rules(rules)
        #expect(summaries[0].source == "hardware:*")
        #expect(try GraphSummaries.connectionRules(summaries) == rules)
        #expect(throws: ControlError.self) {
            try GraphSummaries.connectionRules([RuleSummary(action: .connect, source: "\"open",
                                                            destination: "*")])
        }
    }

    @Test func graphPictureDrawsEveryRouteOnce() throws {
        let graph = try RouterFixtures.graph()
        let picture = GraphPicture.render(nodes: GraphSummaries.nodes(graph), connections: GraphSummaries.routes(graph))
        #expect(picture == """
            keys  source hardware:*
            └─▶ up  midiProcessor transpose
                ├─▶ synth  instrument midihub synth
                │   └─▶ out  output default
                └─▶ fluid  external-instrument "FLUID*"
            """)
    }

    /// A chain of 20,000 nodes draws without recursion, its indentation stopping at 32 levels
    /// (the lines deeper say their depth), so the picture stays linear in the chain's length.
    @Test func graphPictureOfAVeryLongChainIsBoundedAndSaysTheDepth() throws {
        let count = HubGraph.maxNodes - 1  // the longest chain a graph holds
        let chain = (0..<count).map { GraphNode(id: "p\($0)", body: .processor(.transpose)) }
        let routes = [Route("keys", "p0")] + (1..<count).map { Route("p\($0 - 1)", "p\($0)") }
        let graph = try HubGraph(nodes: [GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware)))] + chain,
                                 routes: routes)
        let lines = GraphPicture.render(nodes: GraphSummaries.nodes(graph), connections: GraphSummaries.routes(graph))
            .split(separator: "\n")
        #expect(lines.count == count + 1)
        let last = String(lines.last ?? "")
        #expect(last == String(repeating: " ", count: 4 * 31) + "└─▶ [\(count)] p\(count - 1)  midiProcessor transpose",
                "\(last.count) characters, \(last.prefix { $0 == " " }.count) spaces")
        #expect(lines.allSatisfy { $0.count < 200 })
        #expect(lines[32] == String(repeating: " ", count: 4 * 31) + "└─▶ p31  midiProcessor transpose")
    }

    @Test func nodeSpecsBecomeGraphNodesOrClearErrors() throws {
        let node = try NodeSpec(type: "transpose", parameters: ["semitones": 5]).graphNode(id: "t", registry: NodeTypes.registry)
        #expect(node.body == .processor(.transpose) && node.parameters == ["semitones": 5])
        let external = try NodeSpec(type: "external-instrument", port: "FLUID*").graphNode(id: "f", registry: NodeTypes.registry)
        #expect(external.body == .external(ExternalNode(port: PortSelector(client: NamePattern(glob: "FLUID*")))))
        #expect(throws: ControlError.self) { try NodeSpec(type: "theremin").graphNode(id: "x", registry: NodeTypes.registry) }
        #expect(throws: ControlError.self) {
            try NodeSpec(type: "transpose", parameters: ["semitones": 99]).graphNode(id: "t", registry: NodeTypes.registry)
        }
    }

    @Test func soundCardInfoReadsLongNameUSBPathAndSerial() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cardinfo-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let usbDevice = root + "/sys/devices/pci0000:00/0000:00:14.0/usb1/1-2"
        try FileManager.default.createDirectory(atPath: usbDevice + "/1-2:1.0", withIntermediateDirectories: true)
        try "K25X0001\n".write(toFile: usbDevice + "/serial", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/sys/class/sound/card1", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: root + "/sys/class/sound/card1/device", withDestinationPath: usbDevice + "/1-2:1.0")
        try FileManager.default.createDirectory(atPath: root + "/proc/asound", withIntermediateDirectories: true)
        try """
             0 [VirMIDI        ]: VirMIDI - VirMIDI
                                  Virtual MIDI Card 1
             1 [K25            ]: USB-Audio - Launchkey 25
                                  Novation Launchkey 25 at usb-0000:00:14.0-2, full speed

            """.write(toFile: root + "/proc/asound/cards", atomically: true, encoding: .utf8)
        let info = SoundCardInfo.read(card: 1, root: root)
        #expect(info == SoundCardInfo(longName: "Novation Launchkey 25 at usb-0000:00:14.0-2, full speed",
                                      usbPath: "usb-1-2", serial: "K25X0001"))
        #expect(SoundCardInfo.read(card: 0, root: root) == SoundCardInfo(longName: "Virtual MIDI Card 1"))
    }
}

/// The daemon's SoundFont: read once, played by every `midihub soundfont` node, and by the
/// embedded default when there is one.
@Suite struct DaemonSoundFontTests {
    static let font = "/usr/share/sounds/sf2/TimGM6mb.sf2"

    @Test func theCatalogMakesSoundFontNodesFromItsFontOnly() throws {
        let bank = PresetBank(timbre: Timbre())
        let withFont = NodeCatalog(bank: bank, font: try SoundFont.open(Self.font))
        let node = try #require(withFont.makeNode(SoundFontNode.nodeDescriptor) as? SoundFontNode)
        #expect(node.fontName == "TimGM6mb1.sf2")  // its INFO/INAM
        #expect(NodeCatalog(bank: bank).makeNode(SoundFontNode.nodeDescriptor) == nil)
        #expect(NodeTypes.registry.type(named: "midihub soundfont")?.parameters.map(\.name)
            == ["master gain", "voice limit", "interpolation", "cutoff", "resonance", "attack", "decay", "release",
                "tuning", "transpose", "reverb send", "chorus send"])
    }

    @Test func theEmbeddedDefaultPlaysTheFontWhenTheDaemonHasOne() throws {
        let patch = DefaultSetup.patch(soundFont: true)
        let synth = try #require(patch.graph.node("synth"))
        guard case .unit(let descriptor) = synth.body else { Issue.record("the synth node is \(synth.body)"); return }
        #expect(descriptor == SoundFontNode.nodeDescriptor)
        // The synth's routes, and its reverb and chorus sends (CC 91/93) into two buses heard beside it.
        #expect(patch.graph.routes.map(\.description) == DefaultSetup.patch.graph.routes.map(\.description)
            + ["synth.reverb -> hall", "synth.chorus -> ensemble", "hall -> out", "ensemble -> out"])
        #expect(patch.graph.audioRoutes.unheard.isEmpty)
        #expect(patch.rules == DefaultSetup.patch.rules)
    }
}
