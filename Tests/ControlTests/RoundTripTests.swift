import Testing

@testable import Control

@Suite("Every request through a real socket")
struct RoundTripTests {
    @Test func helloReportsTheDaemonsVersion() throws {
        let socket = try TestSocket()
        let hello = try socket.client().hello(client: "tests")
        #expect(hello == HelloResult(protocolVersion: ControlProtocol.version, server: "midihub", version: "test"))
    }

    @Test func listsPortsNodesAndParameters() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        #expect(try client.ports() == [FakeDaemon.keyboard, FakeDaemon.jackPort])
        let nodes = try client.nodes()
        #expect(nodes == [FakeDaemon.synth])
        let gain = try #require(nodes.first?.parameters.first)
        #expect(gain.min == -60 && gain.max == 12 && gain.default == 0 && gain.unit == "decibels")
    }

    @Test func connectThenDisconnect() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        try client.connect("20:0", to: "node:lead")
        #expect(try client.connections() == [ConnectionSummary(source: "20:0", destination: "node:lead")])
        try client.disconnect("20:0", from: "node:lead")
        #expect(try client.connections().isEmpty)
        #expect(throws: ControlClientError.self) { try client.disconnect("20:0", from: "node:lead") }
    }

    @Test func addReplaceAndRemoveNodes() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let added = try client.addNode(NodeSpec(type: "synth", id: "pad", parameters: ["gain": -6]))
        #expect(added.id == "pad" && added.parameters[0].value == -6)
        #expect(try client.nodes().map(\.id) == ["lead", "pad"])

        let replaced = try client.replaceNode("pad", with: NodeSpec(type: "synth", parameters: ["gain": 3]))
        #expect(replaced.id == "pad" && replaced.parameters[0].value == 3)

        try client.removeNode("lead")
        #expect(try client.nodes().map(\.id) == ["pad"])
    }

    @Test func setParameterReturnsTheNewValue() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let gain = try client.setParameter("gain", of: "lead", to: -12.5)
        #expect(gain.value == -12.5)
        #expect(try client.nodes()[0].parameters[0].value == -12.5)
    }

    @Test func widgetsActAndAnswerWithTheWidgetAfter() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        #expect(try client.setWidget("lead.gain", to: -6).value == -6)
        #expect(try client.pressWidget("Gain").value == -6, "by title")
        #expect(try client.releaseWidget("Gain").target == "lead.gain")
        #expect(try client.widgets()[0].value == -6)
        #expect(throws: ControlClientError.self) { try client.pressWidget("Volume") }
    }

    @Test func loadPatchByPathAndByText() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let graph = try client.loadPatch(PatchSource(path: "/home/me/patches/split.yaml"))
        #expect(graph.nodes == [FakeDaemon.synth])
        _ = try client.loadPatch(PatchSource(text: "nodes: []"))
        #expect(socket.daemon.state.withLock { $0.loadedPatches }
            == [PatchSource(path: "/home/me/patches/split.yaml"), PatchSource(text: "nodes: []")])
    }

    @Test func setRulesThenListThem() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let rules = [
            RuleSummary(action: .connect, source: "hardware:*", destination: #""midihub:synth""#),
            RuleSummary(action: .disallow, source: #""Midi Through*:*""#, destination: "*"),
        ]
        #expect(try client.setRules(rules) == rules)
        #expect(try client.rules() == rules)
        #expect(rules[0].description == #"connect hardware:* -> "midihub:synth""#)
    }

    @Test func setMappingsThenListThemAndLearn() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let set = try client.setMappings("cc 74 -> lead.gain")
        #expect(set.map(\.control) == ["cc 74"])
        #expect(try client.mappings() == set)
        _ = try client.request(.learn(LearnRequest(node: "lead", parameter: "gain", seconds: 5)))
        #expect(socket.daemon.state.withLock { $0.learning?.seconds } == 5)
        _ = try client.request(.cancelLearn)
        #expect(socket.daemon.state.withLock { $0.learning } == nil)
    }

    @Test func responsesEchoNumberAndStringIDs() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let numbered = try #require(try raw.exchange(#"{"id":41,"request":"rules.list"}"#))
        #expect(numbered["id"] as? Int == 41 && numbered["ok"] as? Bool == true)
        let named = try #require(try raw.exchange(#"{"id":"abc","request":"nodes.remove","params":{"node":"lead"}}"#))
        #expect(named["id"] as? String == "abc" && named["ok"] as? Bool == true)
        #expect((named["result"] as? [String: Any])?.isEmpty == true)
        let anonymous = try #require(try raw.exchange(#"{"request":"connections.list"}"#))
        #expect(anonymous["id"] is NSNull && anonymous["ok"] as? Bool == true)
    }

    @Test func twoClientsAtOnce() throws {
        let socket = try TestSocket()
        let first = try socket.client()
        let second = try socket.client()
        try first.hello()
        try second.hello()
        try first.connect("20:0", to: "node:lead")
        #expect(try second.connections() == [ConnectionSummary(source: "20:0", destination: "node:lead")])
        try second.removeNode("lead")
        #expect(try first.nodes().isEmpty)
    }
}

import Foundation
