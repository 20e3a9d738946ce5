import Testing

@testable import Control

@Suite("Refused requests and protocol errors")
struct ProtocolErrorTests {
    @Test func versionMismatchIsRefusedWithAClearMessage() throws {
        let socket = try TestSocket(protocolVersion: ControlProtocol.version + 1)
        let client = try socket.client()
        #expect(throws: ControlClientError.versionMismatch(daemon: ControlProtocol.version + 1, client: ControlProtocol.version)) {
            try client.hello()
        }
        let error = ControlClientError.versionMismatch(daemon: 2, client: 1)
        #expect("midihub: \(error)" == "midihub: the running daemon speaks control protocol 2, this midihub speaks 1 "
            + "(fix: restart the daemon with this version: systemctl --user restart midihub)")
    }

    @Test func malformedJSONKeepsTheConnectionOpen() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let response = try #require(try raw.exchange(#"{"id":1,"request":"ports.list""#))
        #expect(response.errorCode == "bad-json" && response["ok"] as? Bool == false && response["id"] is NSNull)
        let next = try #require(try raw.exchange(#"{"id":2,"request":"ports.list"}"#))
        #expect(next["ok"] as? Bool == true && next["id"] as? Int == 2)
    }

    @Test func notAnObjectIsABadRequest() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        #expect(try raw.exchange("[1,2,3]")?.errorCode == "bad-request")
        #expect(try raw.exchange(#"{"id":7}"#)?.errorCode == "bad-request")
    }

    @Test func unknownRequestNamesTheKnownOnes() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let response = try #require(try raw.exchange(#"{"id":3,"request":"ports.lst"}"#))
        #expect(response.errorCode == "unknown-request" && response["id"] as? Int == 3)
        let error = try #require(response["error"] as? [String: Any])
        #expect((error["message"] as? String)?.contains("ports.lst") == true)
        #expect((error["fix"] as? String)?.contains("ports.list") == true)
    }

    @Test func badParamsNameTheField() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let missing = try #require(try raw.exchange(#"{"id":1,"request":"connect","params":{"source":"20:0"}}"#))
        #expect(missing.errorCode == "bad-params")
        #expect(((missing["error"] as? [String: Any])?["message"] as? String)?.contains("params.destination") == true)
        let wrongType = try raw.exchange(#"{"id":2,"request":"parameters.set","params":{"node":"lead","parameter":"gain","value":[1]}}"#)
        #expect(((wrongType?["error"] as? [String: Any])?["message"] as? String)?.contains("'params.value' should be a number") == true)
        let noSuchChoice = try raw.exchange(#"{"id":3,"request":"parameters.set","params":{"node":"lead","parameter":"gain","value":"loud"}}"#)
        #expect(noSuchChoice?.errorCode == "invalid-value")
        #expect(((noSuchChoice?["error"] as? [String: Any])?["message"] as? String) == "parameter 'gain' of node 'lead' has no choice 'loud'")
        #expect(socket.daemon.state.withLock { $0.connections }.isEmpty)
    }

    @Test func handlerErrorsComeBackWithTheirCode() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        #expect(throws: ControlClientError.rejected(ControlError(.unknownNode, "no node 'leed'", fix: "run 'midihub nodes' to list nodes"))) {
            try client.removeNode("leed")
        }
        #expect(throws: ControlClientError.rejected(ControlError(.invalidPatch, "patch:3:7: unknown node type 'synthh'", fix: "use one of: synth"))) {
            try client.loadPatch(PatchSource(text: "a bad patch"))
        }
        do {
            _ = try client.setParameter("voices", of: "lead", to: 1)
            Issue.record("an output parameter was written")
        } catch {
            guard case .rejected(let refusal) = error else { throw error }
            #expect(refusal.code == .invalidValue)
        }
    }

    @Test func otherHandlerErrorsBecomeFailed() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        #expect(throws: ControlClientError.rejected(ControlError(.failed, "the fake daemon exploded"))) {
            try client.connect("explode", to: "node:lead")
        }
        #expect(try client.ports().count == 2)
    }

    @Test func oversizeLineIsRefusedAndTheConnectionClosed() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let padding = String(repeating: "x", count: ControlProtocol.maxRequestLength)
        try raw.write(Array(#"{"id":1,"request":"patch.load","params":{"text":"\#(padding)"}}"#.utf8) + [10])
        let response = try #require(try raw.readObject())
        #expect(response.errorCode == "line-too-long")
        #expect(try raw.readObject() == nil)
        #expect(try socket.client().nodes() == [FakeDaemon.synth])
    }

    @Test func aClientVanishingMidRequestDoesNotHurtTheServer() throws {
        let socket = try TestSocket()
        for _ in 0..<20 {
            let raw = try socket.raw()
            try raw.send(#"{"id":1,"request":"ports.list"}"#)
            try raw.send(#"{"id":2,"request":"nodes.list"}"#)
        }
        #expect(try socket.client().ports().count == 2)
    }

    @Test func lineJustUnderTheLimitIsServed() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        let envelope = #"{"id":1,"request":"patch.load","params":{"text":""}}"#
        let padding = String(repeating: "y", count: ControlProtocol.maxRequestLength - envelope.utf8.count)
        let response = try #require(try raw.exchange(#"{"id":1,"request":"patch.load","params":{"text":"\#(padding)"}}"#))
        #expect(response["ok"] as? Bool == true)
    }
}

import Foundation
