import Control
import Foundation
import Remote
import Testing
import TestSupport

extension RemoteSuite {
    /// The transcripts of docs/control-protocol.md (the blocks Tests/Integration/replay-transcripts
    /// replays against the real daemon) replayed twice against one control server: over a plain
    /// socket connection, and over the remote's WebSocket, one frame per line. Every line that
    /// comes back must be the same, byte for byte, in the same order: the WebSocket speaks the
    /// socket's schema, its answers, its errors and its events. The events a transcript expects
    /// are published by the test where the doc shows them.
    @Suite struct TranscriptTests {
        @Test func everyTranscriptGetsTheSameLinesOverTheWebSocket() async throws {
            let fixture = try RemoteFixture()
            let transcripts = try Transcript.all()
            #expect(transcripts.count >= 20, "docs/control-protocol.md has \(transcripts.count) transcripts")
            for transcript in transcripts {
                let overSocket = try await transcript.replay(over: try LineConnection(fixture.socket), publishing: fixture.control)
                let webSocket = try await fixture.webSocket()
                let overWebSocket = try await transcript.replay(over: webSocket, publishing: fixture.control)
                #expect(overWebSocket == overSocket, "\(transcript.block), the WebSocket closed with \(webSocket.closeCode.map(String.init) ?? "nothing")")
                let answers = overSocket.filter { $0.contains("\"ok\":") }.count
                #expect(answers == transcript.requests, "\(transcript.block): \(answers) answers to \(transcript.requests) requests")
            }
        }
    }
}

/// One transcript block: the lines a client sends and the ones the doc shows coming back.
struct Transcript {
    enum Step {
        case send(String)
        case expect(String)
    }

    let block: DocumentBlock
    let steps: [Step]

    var requests: Int { steps.filter { if case .send = $0 { true } else { false } }.count }

    /// The blocks replay-transcripts replays, parsed as it parses them.
    static func all() throws -> [Transcript] {
        try Repository.blocks(in: "docs/control-protocol.md").filter { $0.marker?.contains("replay-transcripts") == true }.map { block in
            Transcript(block: block, steps: try block.lines.map { line in
                if block.language == "json" {
                    let value = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                    return value?["request"] != nil ? .send(line) : .expect(line)
                }
                if line.hasPrefix("> ") { return .send(String(line.dropFirst(2))) }
                if line.hasPrefix("< ") { return .expect(String(line.dropFirst(2))) }
                throw TranscriptError(block: block, line: line)
            })
        }
    }

    /// Sends each request and reads up to its answer; publishes each event the doc shows
    /// (those written out in full) and reads up to it. Returns every line that came back.
    func replay(over lines: some LineTransport, publishing server: ControlServer) async throws -> [String] {
        var heard: [String] = []
        func read(until last: (String) -> Bool) async throws {
            while let line = try await lines.next() {
                heard.append(line)
                if last(line) { return }
            }
        }
        for step in steps {
            switch step {
            case .send(let line):
                lines.send(line)
                try await read { $0.contains("\"ok\":") }
            case .expect(let line):
                guard line.hasPrefix("{\"event\""), let event = try? JSONDecoder().decode(ControlEvent.self, from: Data(line.utf8))
                else { continue }
                server.publish(event)
                try await read { $0.hasPrefix("{\"event\"") }
            }
        }
        return heard
    }
}

struct TranscriptError: Error, CustomStringConvertible {
    let block: DocumentBlock
    let line: String
    var description: String { "\(block): a transcript line starts with '> ' or '< ': \(line)" }
}

/// Where a transcript is replayed: a control connection or a WebSocket.
protocol LineTransport {
    func send(_ line: String)
    func next() async throws -> String?
}

extension LineConnection: LineTransport {}
extension RawWebSocket: LineTransport {}
