import Foundation
import HubTestSupport
import Testing
@testable import Hub

/// A patch's `network:` section (docs/patch-format.md#network): its forms, its one-line
/// errors, the core keeping it (install, `invitePeer`, `stopInviting`) and the state saving it.
@Suite struct NetworkPatchTests {
    func parse(_ yaml: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: yaml, file: "test.yaml", registry: GraphFixtures.registry)
    }

    func error(_ yaml: String) -> String? {
        do {
            _ = try parse(yaml)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func theSectionsForms() throws {
        #expect(try parse("tempo: 120").network == .none)
        #expect(try parse("network: {listen: 5004}").network == NetworkSettings(listen: .init(port: 5004)))
        let full = try parse("""
            network:
              listen: {port: 5010, name: rack, address: 127.0.0.1}
              connect: ["192.168.1.20", "laptop.local:5004", "[fe80::1]:5006"]
              journal: false
            """).network
        #expect(full == NetworkSettings(listen: .init(port: 5010, name: "rack", address: "127.0.0.1"),
                                        connect: ["192.168.1.20", "laptop.local:5004", "[fe80::1]:5006"], journal: false))
        #expect(try parse("network: {listen: {name: rack}}").network.listen == .init(port: 5004, name: "rack"))
        #expect(try parse("network: {connect: [pi.local]}").network == NetworkSettings(connect: ["pi.local"]))
        #expect(!(try parse("network: {connect: [pi.local]}").network.isIdle))
        #expect(try parse("network: {listen: 5004, jitter_buffer: 5}").network.jitterBuffer == 5)
        #expect(try parse("network: {listen: 5004, jitter_buffer: 0}").network.jitterBuffer == nil)
    }

    /// The top-level `osc:` (docs/osc.md): a port on this machine, or `ADDRESS:PORT`, kept with
    /// the network settings whichever section comes first.
    @Test func theOSCSetting() throws {
        #expect(try parse("osc: 9000").network.osc == .init(host: "127.0.0.1", port: 9000))
        #expect(try parse("osc: 0.0.0.0:9000").network.osc == .init(host: "0.0.0.0", port: 9000))
        #expect(try parse("osc: '[::]:9000'").network.osc == .init(host: "::", port: 9000))
        #expect(try parse("osc: 9000\nnetwork: {listen: 5004}").network == NetworkSettings(listen: .init(port: 5004), osc: .init(port: 9000)))
        #expect(try parse("osc: 9000").network.isIdle)  // no RTP-MIDI host for OSC alone
        #expect(error("osc: loud") == "test.yaml:1:6: osc 'loud' is not a port or ADDRESS:PORT "
            + "(fix: write `osc: 9000` (this machine only) or `osc: 0.0.0.0:9000` (every network))")
        #expect(error("osc: 70000") != nil)
    }

    @Test func badValuesAreOneLineNamingTheProblemAndTheFix() {
        #expect(error("network: {listen: 70000}") == "test.yaml:1:19: listen port 70000 is not a UDP port with one above it "
            + "(fix: write a port from 1 to 65534, usually 5004 (the data port is the next))")
        #expect(error("network: {listen: [5004]}") == "test.yaml:1:19: network.listen must be a port or `{port: 5004, name: rack}` "
            + "(fix: write `listen: 5004`, or `listen: {port: 5004, name: rack}`)")
        #expect(error("network: {connect: ['192.168.1.20:x']}") == "test.yaml:1:21: '192.168.1.20:x' is not a peer address "
            + "(fix: write HOST or HOST:PORT, e.g. 192.168.1.20 or laptop.local:5004)")
        #expect(error("network: {connect: [a, a]}") == "test.yaml:1:24: peer 'a' is listed twice (fix: list each peer once)")
        #expect(error("network: {connect: pi}") == "test.yaml:1:20: network.connect must be a list "
            + "(fix: write each entry on its own line starting with `- `)")
        #expect(error("network: {journal: maybe}") == "test.yaml:1:20: journal must be true or false (fix: write `journal: true`)")
        #expect(error("network: {jitter_buffer: 2000}") == "test.yaml:1:26: network.jitter_buffer 2000 is outside 0…1000 ms "
            + "(fix: write the milliseconds to hold received MIDI, e.g. 5)")
        #expect(error("network: {jitter_buffer: soon}") == "test.yaml:1:26: expected a number for network.jitter_buffer, found 'soon' "
            + "(fix: write a number like 12 or 0.5)")
        #expect(error("network: {listen: 5004, port: 5004}") == "test.yaml:1:25: unknown key 'port' "
            + "(fix: use listen, connect, journal, jitter_buffer)")
        #expect(error("network: {listen: {port: 5004, nmae: rack}}") == "test.yaml:1:32: unknown key 'nmae' (fix: use port, name, address)")
        #expect(error("network: 5004") == "test.yaml:1:10: network must be a mapping of `key: value` lines "
            + "(fix: indent the entries under it as `key: value`)")
    }

    @Test func theCoreKeepsThePatchsSessionsAndThePeersInvitedSince() throws {
        var core = try HubCore(state: HubState(graph: try GraphFixtures.chain()), registry: GraphFixtures.registry)
        var sink = RecordingSink()
        let patch = try parse("network: {listen: 5004, connect: [192.168.1.20]}")
        let installed = try core.handle(.install(patch, at: 1), into: &sink)
        #expect(core.snapshot.network == patch.network)
        #expect(installed.contains(.network(patch.network)))
        _ = try core.handle(.invitePeer("laptop.local"), into: &sink)
        let more = try core.handle(.invitePeer("laptop.local"), into: &sink)
        #expect(core.snapshot.network.connect == ["192.168.1.20", "laptop.local"])
        #expect(more == [.network(core.snapshot.network), .save(core.snapshot.state)])
        #expect(core.snapshot.state.network.connect == ["192.168.1.20", "laptop.local"])
        #expect(try core.handle(.stopInviting(["192.168.1.20"]), into: &sink).first
            == .network(NetworkSettings(listen: patch.network.listen, connect: ["laptop.local"])))
        let cleared = try core.handle(.install(try parse("tempo: 100"), at: 2), into: &sink)
        #expect(cleared.contains(.network(.none)))
    }

    @Test func theStateSavesTheSessionsAndReadsFilesWithout() throws {
        let state = HubState(graph: try GraphFixtures.chain(), network: NetworkSettings(listen: .init(port: 5004, name: "rack"),
                                                                                    connect: ["laptop.local"]))
        let text = String(decoding: state.encoded(), as: UTF8.self)
        #expect(text.contains(#""network" : {"#))
        #expect(try HubState(decoding: state.encoded(), path: "s.json") == state)
        let none = HubState(graph: try GraphFixtures.chain())
        #expect(!String(decoding: none.encoded(), as: UTF8.self).contains("network"))
        #expect(try HubState(decoding: none.encoded(), path: "s.json").network == .none)
    }
}
