import Foundation
import HubTestSupport
import SetupViews
import Testing
import TestSupport
@testable import Daemon
@testable import Hub

/// The patches of docs/daemon.md, loaded with the daemon's own registry: the default
/// setup it shows is the one the daemon embeds, and the JACK example's selectors and
/// rules reach the ports the page says they do (the daemon's JACK ports: client `jack`,
/// port `CLIENT:PORT`, as `JackPortTable` makes them). The JACK example also runs in the
/// VM against jackd: Tests/Integration/vm/46-doc-daemon.test.sh.
@Suite struct DaemonDocExampleTests {
    static func yamlBlocks() throws -> [DocumentBlock] {
        try Repository.blocks(in: "docs/daemon.md").filter { $0.language == "yaml" }
    }

    @Test func daemonDocDefaultSetupIsTheEmbeddedOne() throws {
        let block = try #require(try Self.yamlBlocks().first, "docs/daemon.md shows no default setup")
        let shown = try DocumentationExampleTests.load(block.text, file: block.description)
        let embedded = DefaultSetup.patch
        #expect(shown.graph == embedded.graph)
        #expect(shown.rules == embedded.rules)
        #expect(shown.tempo == embedded.tempo)
    }

    /// A JACK port as the daemon lists it; `client` numbers the JACK client (1000 + n).
    static func jack(_ name: String, _ direction: PortDirection, client: Int) -> PortDescriptor {
        PortDescriptor(address: PortAddress(client: client, port: 0), clientName: JackPortTable.jackClientName,
                       portName: name, portClass: .app, direction: direction)
    }

    @Test func daemonDocJackPatchReachesTheJackPorts() throws {
        let blocks = try Self.yamlBlocks()
        try #require(blocks.count == 2, "docs/daemon.md's yaml blocks changed: update this test")
        let patch = try DocumentationExampleTests.load(blocks[1].text, file: blocks[1].description)
        let monitor = Self.jack("midi-monitor:input", .input, client: 1000)
        let seq = Self.jack("seq:out", .output, client: 1001)
        let fluidsynth = Self.jack("fluidsynth:midi_00", .input, client: 1002)
        let recorder = Self.jack("recorder:input", .input, client: 1003)
        let hubIn = PortDescriptor(address: PortAddress(client: 128, port: 0), clientName: "midihub", portName: "in",
                                   portClass: .app, direction: .input)
        let keyboard = RouterFixtures.keyboard

        guard case .external(let tojack)? = patch.graph.node("tojack")?.body,
              case .source(let fromjack)? = patch.graph.node("fromjack")?.body,
              case .source(let keys)? = patch.graph.node("keys")?.body,
              case .external(let dump)? = patch.graph.node("dump")?.body
        else {
            Issue.record("the JACK example lacks its nodes: \(patch.graph.nodes)")
            return
        }
        #expect(tojack.port.matches(monitor) && !tojack.port.matches(fluidsynth), "hub → JACK")
        #expect(fromjack.matches(seq) && !fromjack.matches(keyboard), "JACK → hub")
        #expect(keys.matches(keyboard) && !keys.matches(seq))
        #expect(dump.port.client.matches("aseqdump"))
        #expect(patch.graph.routes.map(\.description) == ["keys -> tojack", "fromjack -> dump"])

        let rules = Reconciler(rules: patch.rules)
        #expect(rules.wantsConnection(from: keyboard, to: hubIn) == true)
        #expect(rules.wantsConnection(from: seq, to: hubIn) == true, "connect jack:* -> \"midihub:in\"")
        #expect(rules.wantsConnection(from: keyboard, to: recorder) == true, "ALSA → JACK")
        #expect(rules.wantsConnection(from: seq, to: fluidsynth) == true, "JACK → JACK")
        #expect(rules.wantsConnection(from: keyboard, to: fluidsynth) == nil)
    }
}
