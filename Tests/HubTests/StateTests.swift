import Foundation
import Glibc
import Testing
@testable import Hub

/// A fresh directory under /tmp for one test.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "midihub-hub-\(UUID().uuidString)"
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

@Suite struct StateTests {
    func sampleState() throws -> HubState {
        let graph = try GraphFixtures.chain().adding(GraphFixtures.fluid, routes: [Route("up", "fluid", channels: [1, 2])]).new
        let split = GraphNode(id: "split", body: .processor(.keyZones([KeyZone(low: 0, high: 59, channel: 1)])))
        let withSplit = try graph.adding(split, routes: [Route("keys", "split")]).new
            .adding(GraphFixtures.guitar, routes: [Route("guitar", "verb")]).new
        return HubState(graph: withSplit, rules: try ConnectionRule.parseList(#"connect hardware:* -> "midihub:in""#),
                        runtimeEdits: [RuntimeEdit(source: PortIdentity(device: "usb:1-2", portName: "MIDI 1"),
                                                   destination: PortIdentity(device: "client:FLUID", portName: "in"),
                                                   connected: true)])
    }

    @Test func roundTripsThroughTheFile() throws {
        let store = StateStore(path: temporaryDirectory() + "/sub/state.json")
        #expect(try store.load() == nil)
        let state = try sampleState()
        try store.save(state)
        #expect(try store.load() == state)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"))
    }

    @Test func aCorruptFileGivesDefaultsAndIsKeptBesideItselfNeverOverwritten() throws {
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        try store.save(try sampleState())
        let bytes = try #require(try AtomicFile.read(store.path))
        for length in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 97)) {
            let truncated = Array(bytes[..<length])
            try Data(truncated).write(to: URL(fileURLWithPath: store.path))
            let (state, problem) = try store.restore(stamp: "at-\(length)")
            #expect(state == .defaults)
            guard case .corruptKept(let path, _, let kept)? = problem else {
                Issue.record("length \(length): expected corruptKept, got \(String(describing: problem))")
                continue
            }
            #expect(path == store.path && kept == store.path + ".unusable-at-\(length)")
            #expect(try AtomicFile.read(kept) == truncated, "the user's file is kept as it was")
            #expect(!FileManager.default.fileExists(atPath: store.path), "nothing left for a save to replace")
            #expect(problem?.description.contains("kept as \(kept), starting from the defaults (fix: ") == true)
        }
    }

    @Test func aStateFromANewerMidihubIsRefusedAndLeftAlone() throws {
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        let newer = #"{"format":2,"nodes":[],"routes":[],"rules":[],"runtimeEdits":[],"futureField":{"a":1}}"#
        try Data(newer.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: StateError.newer(path: store.path, format: 2, supported: 1)) { try store.restore(stamp: "x") }
        #expect(try AtomicFile.read(store.path) == Array(newer.utf8))
        #expect(StateError.newer(path: "s.json", format: 2, supported: 1).description
            == "state file s.json was written by a newer midihub (format 2; this one reads format 1) "
            + "(fix: run the newer midihub, or start with --state OTHER-FILE)")
    }

    @Test func semanticallyInvalidStateIsCorrupt() throws {
        let store = StateStore(path: temporaryDirectory() + "/state.json")
        let json = #"{"format":1,"nodes":[{"id":"a","type":"source","port":"*","parameters":{}}],"routes":[{"from":"a","to":"b"}],"rules":[],"runtimeEdits":[]}"#
        try Data(json.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: StateError.corrupt(path: store.path, reason: "graph: route a -> b names an unknown node 'b'")) {
            try store.load()
        }
        try Data(#"{"format":7}"#.utf8).write(to: URL(fileURLWithPath: store.path))
        #expect(throws: StateError.self) { try store.load() }
    }

    /// Found by `FuzzStateFile` (the seed `fuzz/corpus/state/rule-with-a-line-break.json`):
    /// a hand-edited rule with a line break in it made the error two lines long.
    @Test func anErrorQuotingAHandEditedRuleStaysOnOneLine() throws {
        let json = #"{"format":1,"nodes":[],"routes":[],"rules":["connect /\n\""],"runtimeEdits":[]}"#
        do {
            _ = try HubState(decoding: Array(json.utf8), path: "state.json")
            Issue.record("a rule that does not parse was read")
        } catch {
            #expect(!error.description.contains("\n") && error.description.contains(#"connect /\n"#), "\(error)")
        }
    }

    /// Found by `FuzzStateFile` (the seed `fuzz/corpus/state/descriptor-code-not-ascii.json`):
    /// a node's manufacturer code edited to non-ASCII text read as other bytes than it wrote.
    @Test func aDescriptorCodeThatIsNotFourASCIICharactersIsRefused() throws {
        func state(manufacturer: String) -> [UInt8] {
            Array(#"{"format":1,"nodes":[{"id":"synth","type":"unit","parameters":{},"descriptor":{"kind":"instrument","subtype":"msyn","manufacturer":"\#(manufacturer)","name":"midihub synth","version":65536}}],"routes":[],"rules":[],"runtimeEdits":[]}"#.utf8)
        }
        let read = try HubState(decoding: state(manufacturer: "mhub"), path: "state.json")
        #expect(try HubState(decoding: read.encoded(), path: "state.json") == read)
        #expect(throws: StateError.corrupt(path: "state.json", reason: "node 'synth' has a descriptor whose subtype or manufacturer "
                                           + "is not four ASCII characters ('msyn', 'tמtr')")) {
            try HubState(decoding: state(manufacturer: "tמtr"), path: "state.json")
        }
    }

    @Test func writeFailureIsTyped() {
        #expect(throws: StateError.self) { try AtomicFile.write([1, 2, 3], to: "/proc/nonexistent-dir/state.json") }
        #expect(StateStore.defaultPath(environment: ["XDG_STATE_HOME": "/x"]) == "/x/midihub/state.json")
        #expect(StateStore.defaultPath(environment: ["HOME": "/home/u"]) == "/home/u/.local/state/midihub/state.json")
    }

    /// A forked child rewrites the file in a loop (system calls only) and is killed with SIGKILL at
    /// random moments; after every kill the file holds one complete version.
    @Test func killDuringWritesNeverLeavesAPartialFile() throws {
        let directory = temporaryDirectory()
        let path = directory + "/state.json"
        // Large versions make the window inside write() wide.
        let versions: [[UInt8]] = (0..<3).map { version in
            Array(repeating: UInt8(ascii: "a") + UInt8(version), count: 1 << 20) + [UInt8(version)]
        }
        try AtomicFile.write(versions[0], to: path)
        var generator = SystemRandomNumberGenerator()
        for round in 0..<12 {
            let pid = path.withCString { target in
                (path + ".tmp").withCString { temporary in
                    directory.withCString { dir in
                        versions[1].withUnsafeBytes { first in
                            versions[2].withUnsafeBytes { second in
                                let pid = fork()
                                if pid == 0 {
                                    var index = 0
                                    while true {
                                        _ = AtomicFile.write(index % 2 == 0 ? first : second,
                                                             target: target, temporary: temporary, directory: dir)
                                        index += 1
                                    }
                                }
                                return pid
                            }
                        }
                    }
                }
            }
            try #require(pid > 0)
            usleep(UInt32.random(in: 2_000...40_000, using: &generator))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            let contents = try #require(try AtomicFile.read(path))
            let version = versions.firstIndex(of: contents)
            #expect(version != nil, "round \(round): \(contents.count) bytes on disk is not a whole version")
        }
    }
}
