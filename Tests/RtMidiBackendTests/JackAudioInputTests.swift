import AudioHost
import Foundation
import Glibc
import Hub
import RenderCore
import Sequencer
import SetupViews
import SoundMeasures
import Testing
import TestSupport
@testable import Daemon

/// Another app's sound into the graph (docs/jack.md, "Other apps' sound"): a `JackInputNode`
/// takes what a real JACK client (`jack_metro`, started after the hub) plays, through input
/// ports on the hub's client, and the hub's output carries it — recorded by `jack_rec`.
extension JackMIDITests {
    @Test func anAppsSoundComesIntoTheGraphThroughTheHubsJackInputs() throws {
        try withJackServer { _ in
            let inputs = JackAudioPorts()
            let driver = try AudioDriver(target: .jack(client: "hub-in", destination: "default"),
                                         options: AudioDriverOptions(realtimePriority: false, jackPorts: inputs))
            defer { try? driver.stop() }
            let app = JackInputNode(name: "metro", source: "jack:beeper:*", matches: { $0.hasPrefix("beeper:") }, host: inputs,
                                    report: { Issue.record("reported: \($0)") })
            let engine = RenderEngine()
            engine.install(RenderProgram(nodes: [app], format: driver.renderFormat))
            try driver.start(engine: engine)
            // The app starts after the hub: its port appearing is what connects it.
            let beeper = try Self.startTool("jack_metro", ["-n", "beeper", "-b", "60", "-f", "660", "-D", "950", "-A", "0.5"])
            defer { beeper.stop() }
            try driver.waitUntil({ ((try? Self.jackConnections(of: "hub-in:metro-left")) ?? []).contains("beeper:60_bpm") },
                                 message: "beeper:60_bpm never got connected to hub-in:metro-left: "
                                     + "\((try? Self.jackConnections(of: "hub-in:metro-left")) ?? [])")
            #expect(try Self.jackConnections(of: "hub-in:metro-right") == ["beeper:60_bpm"], "one app port: to both inputs")
            try Self.expectBeep(in: try Self.record(["hub-in:left", "hub-in:right"])[0], at: "the hub's output")
            #expect(app.outputValues.load(AudioInputNode.Output.level.rawValue) > -20, "the node's level")
        }
    }

    /// docs/jack.md's inputs in JACK: the daemon's rack, playing into JACK, makes `input:
    /// default` read the physical capture ports and `input: "jack:beeper:*"` a program's; the
    /// beeps are at the hub's output.
    @Test func inputsReadJacksCaptureAndAppPortsWhileTheHubPlaysInJack() throws {
        try withDocPatchInJack(containing: "input: \"jack:beeper:*\"", client: "hub-inputs", connected: [
            "hub-inputs:mic-left": "system:capture_1", "hub-inputs:mic-right": "system:capture_2",
            "hub-inputs:beeps-left": "beeper:60_bpm", "hub-inputs:beeps-right": "beeper:60_bpm",
        ]) { rack in
            #expect(rack.instance(of: "mic") is JackInputNode && rack.instance(of: "beeps") is JackInputNode)
            let recorded = try Self.record(["hub-inputs:left", "hub-inputs:right"])
            try Self.expectBeep(in: recorded[0], at: "the hub's output")
        }
    }

    /// docs/jack.md's outputs in JACK: an output node beyond the first is a pair of ports of
    /// its own, connected to its destination; what is routed to it (the beeps) is there, and
    /// not at the main output (the synth, silent).
    @Test func anOutputNodeBeyondTheFirstIsAPairOfJackPortsOfItsOwn() throws {
        try withDocPatchInJack(containing: "cue: { output:", client: "hub-cue", connected: [
            "hub-cue:cue-left": "system:playback_2", "hub-cue:cue-right": "system:playback_2",
            "hub-cue:left": "system:playback_1", "hub-cue:beeps-left": "beeper:60_bpm",
        ]) { _ in
            let recorded = try Self.record(["hub-cue:cue-left", "hub-cue:left"])
            try Self.expectBeep(in: recorded[0], at: "the cue output")
            #expect(recorded[1].allSatisfy { abs($0) < 0.001 }, "the main output carries only the silent synth")
        }
    }

    /// Plays docs/jack.md's patch containing `marker` on the daemon's rack in JACK as
    /// `client`, with `jack_metro` beeping at 660 Hz as `beeper`, once its ports are
    /// `connected` as given (each port to exactly that one).
    private func withDocPatchInJack(containing marker: String, client: String, connected wanted: [String: String],
                                    _ body: (AudioRack) throws -> Void) throws {
        let block = try #require(try Repository.blocks(in: "docs/jack.md").first { $0.text.contains(marker) })
        let patch = try Patch.parse(yaml: block.text, file: block.description, registry: NodeTypes.registry)
        try withJackServer { _ in
            let catalog = NodeCatalog(bank: try PresetBankLoader.load(directory: Self.presetFolder))
            let driver = try AudioDriver(target: .jack(client: client, destination: "default"),
                                         options: AudioDriverOptions(realtimePriority: false, jackPorts: catalog.jackPorts))
            let rack = AudioRack(driver: driver, catalog: catalog)
            defer { try? rack.stop() }
            #expect(try rack.install(patch.graph, stopped: []).isEmpty)
            let beeper = try Self.startTool("jack_metro", ["-n", "beeper", "-b", "60", "-f", "660", "-D", "950", "-A", "0.5"])
            defer { beeper.stop() }
            func connected() -> Bool { wanted.allSatisfy { ((try? Self.jackConnections(of: $0.key)) ?? []) == [$0.value] } }
            try driver.waitUntil(connected, message: "not connected as \(wanted): \((try? Self.jackPorts(["-c"])) ?? [])")
            try body(rack)
        }
    }

    /// Two seconds of `ports`, recorded by `jack_rec`: a channel each.
    static func record(_ ports: [String]) throws -> [[Double]] {
        let recording = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-jackrec-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: recording) }
        let status = try JackTestServer.runTool("jack_rec", ["-f", recording.path, "-d", "2", "-b", "16"] + ports)
        #expect(status == 0, "jack_rec exited with \(status)")
        return try channels(ofWAV: recording)
    }

    /// Expects `jack_metro`'s 660 Hz beep in `samples` (`place` says where they were taken).
    static func expectBeep(in samples: [Double], at place: String) throws {
        let beep = longestSoundingRun(samples)
        let measured = beep.count > 12_000 ? NoteMeasures.period(of: Array(beep.dropFirst(1_000).prefix(9_600)), rate: 48_000) : nil
        let period = try #require(measured, "no clear pitch in the \(beep.count) sounding frames at \(place)")
        #expect(abs(48_000 / period - 660) < 3, "the beep's pitch at \(place): \(48_000 / period) Hz")
    }

    /// The longest run of `samples` without 10 ms of silence in it.
    static func longestSoundingRun(_ samples: [Double]) -> ArraySlice<Double> {
        var best = samples[0..<0], start: Int?, quiet = 0
        for (index, sample) in samples.enumerated() {
            if abs(sample) > 0.01 {
                if start == nil { start = index }
                quiet = 0
            } else if let first = start {
                quiet += 1
                if quiet > 480 {
                    if index - quiet - first > best.count { best = samples[first...(index - quiet)] }
                    start = nil
                }
            }
        }
        if let first = start, samples.count - quiet - first > best.count { best = samples[first..<(samples.count - quiet)] }
        return best
    }

    /// The ports `port` is connected to, as `jack_lsp -c` lists them.
    static func jackConnections(of port: String) throws -> [String] {
        let lines = try jackPorts(["-c"])
        guard let at = lines.firstIndex(of: port) else { return [] }
        return lines[(at + 1)...].prefix { $0.hasPrefix(" ") }.map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Starts a JACK program that makes no MIDI port (`JackPeer.start` waits for one), and
    /// waits until its client's ports are listed.
    static func startTool(_ tool: String, _ arguments: [String]) throws -> JackPeer {
        let process = Process()
        process.executableURL = try JackTestServer.tool(tool)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let peer = JackPeer(process: process, log: FileManager.default.temporaryDirectory.appendingPathComponent("midihub-\(tool).unused"))
        let client = arguments[(arguments.firstIndex(of: "-n") ?? 0) + 1] + ":"
        for _ in 0..<1000 {
            if try jackPorts().contains(where: { $0.hasPrefix(client) }) { break }
            usleep(10_000)
        }
        return peer
    }
}
