import ALSA
import AudioHost
import Foundation
import Hub
import MIDICore
import RenderCore
import Sequencer
import SetupViews
import Synth
import Testing
import TestSupport
@testable import Daemon

/// The daemon's audio rack plays a patch's audio graph as written: docs/patch-format.md's
/// two synths on two mixer strips, one through a reverb, played through alsa-lib's `file`
/// plugin (no sound card), recorded and measured per channel.
@Suite struct AudioRackGraphTests {
    /// The example of docs/patch-format.md whose text contains `marker`: "mixer strip" (the
    /// piano through a reverb panned left, the bass panned right) or "note gate".
    static func patch(_ marker: String = "mixer strip") throws -> Patch {
        let block = try #require(try Repository.blocks(in: "docs/patch-format.md").first {
            $0.language == "yaml" && $0.text.contains(marker)
        })
        return try Patch.parse(yaml: block.text, file: block.description, registry: NodeTypes.registry)
    }

    static let bankFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("patches/presets").path

    /// Installs `patch` on a rack playing to a file, runs `play` on it (published as the owner
    /// does after a batch), renders half a second
    /// more and returns the RMS of the left and the right channel. (The file renders faster
    /// than real time, so where a live note lands in it varies: sounding is told from silence
    /// by 1e-3 against 1e-6, not by a level.)
    private func levels(patch: Patch? = nil, offering prepare: ((NodeCatalog, RenderFormat, HubGraph) -> PreparedNodes)? = nil,
                        checkRack: (AudioRack) -> Void = { _ in },
                        _ play: (AudioRack) -> Void) throws -> (left: Double, right: Double) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-rack-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let bank = try PresetBankLoader.load(directory: Self.bankFolder)
        let driver = try AudioDriver(device: "file:\"\(path)\",raw",
                                     options: AudioDriverOptions(pcm: PCMConfiguration(formats: [.float32LE]), realtimePriority: false))
        let catalog = NodeCatalog(bank: bank)
        let rack = AudioRack(driver: driver, catalog: catalog)
        let graph = try (patch ?? Self.patch()).graph
        if let prepare { rack.offer(prepare(catalog, driver.renderFormat, graph), program: nil) }
        #expect(try rack.install(graph, stopped: []).isEmpty)
        checkRack(rack)
        play(rack)
        rack.publishLive()  // the end of the owner's batch
        let start = rack.driver.counters.framesRendered
        try waitUntil({ rack.driver.counters.framesRendered >= start + 24_000 },
                      message: "the rack rendered only \(rack.driver.counters.framesRendered - start) of 24000 frames")
        try rack.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        func rms(_ channel: Int) -> Double {
            let values = stride(from: channel, to: samples.count, by: 2).map { Double(samples[$0]) }
            return (values.reduce(0) { $0 + $1 * $1 } / Double(max(1, values.count))).squareRoot()
        }
        return (rms(0), rms(1))
    }

    private func note(on node: NodeID, channel: UInt8 = 0) -> (AudioRack) -> Void {
        { rack in rack.play(.noteOn(channel: channel, note: 69, velocity: 100), on: node, at: .now()) }
    }

    @Test func eachInstrumentIsHeardOnlyInTheChannelItsStripIsPannedTo() throws {
        let piano = try levels(note(on: "piano"))
        #expect(piano.left > 0.001, "the piano sounds on the left: \(piano)")
        #expect(piano.right < 1e-6, "and not on the right: \(piano)")
        let bass = try levels(note(on: "bass"))
        #expect(bass.right > 0.001 && bass.left < 1e-6, "the bass only on the right: \(bass)")
    }

    /// Nodes made and prepared on the control side (`PreparedNodes`) are the ones the install
    /// plays: the owner allocates none; one offered for another body is not taken.
    @Test func theInstallPlaysTheNodesTheControlSidePrepared() throws {
        var prepared = PreparedNodes()
        let piano = try levels(offering: { catalog, format, graph in
            let strip = GraphNode(id: "piano-strip", body: .unit(ReverbNode().descriptor))  // not the strip the graph has
            prepared = PreparedNodes(for: graph.nodes.filter { $0.id != "piano-strip" } + [strip], catalog: catalog, format: format)
            return prepared
        }, checkRack: { rack in
            let graphPiano = rack.instance(of: "piano")
            #expect(graphPiano != nil && graphPiano === prepared.nodes["piano"]?.node, "the prepared piano plays")
            #expect(rack.instance(of: "piano-strip") !== prepared.nodes["piano-strip"]?.node, "a reverb is no strip")
        }, note(on: "piano"))
        #expect(piano.left > 0.001 && piano.right < 1e-6, "the prepared piano sounds through its strip: \(piano)")
    }

    /// A program the control side compiled against the rack's layout (`RackLayout.compile`) is
    /// the one the install swaps in, node for node; one compiled against a layout the rack
    /// has moved past is not: the owner compiles the graph again against its own.
    @Test func theInstallSwapsInTheProgramTheControlSideCompiledUnlessTheRackMovedOn() throws {
        let full = try Self.patch().graph
        let bass = try #require(full.node("bass"))
        let withoutBass = try full.removing("bass").new
        let catalog = NodeCatalog(bank: try PresetBankLoader.load(directory: Self.bankFolder))
        let piano = try levels { rack in
            func compile(_ graph: HubGraph, stopped: [GraphNode], offered: PreparedNodes = PreparedNodes()) -> CompiledRack {
                rack.layout.compile(graph, stopped: stopped, routes: graph.audioRoutes, offered: offered,
                                    catalog: catalog, format: rack.renderFormat)
            }
            _ = try? rack.install(withoutBass, stopped: [bass])
            // The bass comes back: the control side makes its node and compiles the program.
            let made = PreparedNodes(for: [bass], catalog: catalog, format: rack.renderFormat)
            let compiled = compile(full, stopped: [], offered: made)
            rack.offer(PreparedNodes(), program: compiled)  // the owner has no node to make one from
            _ = try? rack.install(full, stopped: [])
            #expect(rack.instance(of: "bass") != nil && rack.instance(of: "bass") === made.nodes["bass"]?.node,
                    "the compiled program, with the node made for it, plays")
            #expect(rack.layout.generation == compiled.layout.generation)

            let stale = compile(withoutBass, stopped: [bass])  // against this layout…
            _ = try? rack.install(withoutBass, stopped: [bass])  // …which other changes move on:
            _ = try? rack.install(full, stopped: [])  // the bass is back, with a new id
            let bassID = rack.renderIDs["bass"]
            let before = rack.layout.generation
            rack.offer(PreparedNodes(), program: stale)
            _ = try? rack.install(withoutBass, stopped: [bass])
            #expect(rack.layout.generation == before + 1, "compiled again, not the stale program")
            #expect(bassID.map { rack.layout.previousIDs.contains($0) } == true,
                    "the id of the bass just removed is not reused while its events may be queued")
            note(on: "piano")(rack)
        }
        #expect(piano.left > 0.001, "the piano still sounds: \(piano)")
    }

    @Test func mutingAStripSilencesItsInstrumentOnly() throws {
        let muted = try levels { rack in
            rack.setParameter("piano-strip", "mute", to: 1)
            note(on: "piano")(rack)
            note(on: "bass")(rack)
        }
        #expect(muted.left < 1e-6, "the muted piano is silent: \(muted)")
        #expect(muted.right > 0.001, "the bass still sounds: \(muted)")
    }

    @Test func aBypassedStripLetsItsChainThroughUnpannedAndUnmuted() throws {
        // The piano's strip pans it hard left and mutes it; bypassed, the reverb's output goes
        // straight to the output: heard on both sides.
        let patch = try Self.patch()
        let nodes = patch.graph.nodes.map { node in
            node.id == "piano-strip" ? GraphNode(id: node.id, body: node.body, parameters: ["pan": -1, "mute": 1, "bypass": 1]) : node
        }
        let bypassed = try HubGraph(nodes: nodes, routes: patch.graph.routes)
        let piano = try levels(patch: Patch(graph: bypassed, rules: patch.rules), note(on: "piano"))
        #expect(piano.left > 0.001 && piano.right > 0.001, "the piano is heard on both sides: \(piano)")
    }

    @Test func stripSendsFeedTheSharedReverbAtTheirLevels() throws {
        // The bass is panned hard right: all that sounds on the left is the reverb's return.
        let patch = try Self.patch("send a: -6")
        let dry = try levels(patch: patch, note(on: "bass"))
        #expect(dry.right > 0.001 && dry.left < 1e-6, "the bass's send is off: nothing reaches the reverb: \(dry)")
        let sent = try levels(patch: patch) { rack in
            rack.setParameter("bass-strip", "send a", to: 0)
            note(on: "bass")(rack)
        }
        #expect(sent.left > 0.001, "with its send up, the bass reaches the reverb, heard on both sides: \(sent)")
        let piano = try levels(patch: patch, note(on: "piano"))
        #expect(piano.right > 0.001, "the piano, hard left, is sent to the reverb at -6 dB: \(piano)")
    }

    @Test func notesOnChannelTenChopThePad() throws {
        var patch = try Self.patch("note gate")
        // Without the metronome's clicks, what sounds is the pad through the gate alone.
        let silentClick = patch.graph.nodes.map { node in
            node.id == "click" ? GraphNode(id: node.id, body: node.body, parameters: ["enabled": 0]) : node
        }
        patch.graph = try HubGraph(nodes: silentClick, routes: patch.graph.routes)
        let closed = try levels(patch: patch) { note(on: "pad")($0) }
        #expect(closed.left < 1e-6, "a pad note alone stays behind the closed gate: \(closed)")
        let open = try levels(patch: patch) { rack in
            note(on: "pad")(rack)
            note(on: "chop", channel: 9)(rack)
        }
        #expect(open.left > 0.001, "a held drum note opens the gate: \(open)")
        let clicks = try levels(patch: try Self.patch("note gate")) { _ in }
        #expect(clicks.left > 0.001, "the metronome clicks on its own: \(clicks)")
    }

    /// The bass routed to an output on a second device (a file here, through alsa-lib's
    /// `file` plugin), the piano to the main one: each is heard on its own device only.
    @Test func anOutputOnAnotherDevicePlaysWhatIsRoutedToItThere() throws {
        func patch(second path: String) throws -> Patch {
            try Patch.parse(yaml: """
                version: 1
                name: piano on the main card, bass on a second one
                nodes:
                  keys: { source: hardware:* }
                  piano: { instrument: midihub synth }
                  bass: { instrument: midihub synth }
                  out: { output: default }
                  phones: { output: 'file:"\(path)",raw' }
                routes:
                  - keys -> piano
                  - keys -> bass
                  - piano -> out
                  - bass -> phones
                """, file: "two-outputs.yaml", registry: NodeTypes.registry)
        }
        func secondLevel(playing node: NodeID) throws -> (main: Double, second: Double) {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-second-\(UUID().uuidString).raw").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            let main = try levels(patch: try patch(second: path), note(on: node))
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let rms = (samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(1, samples.count))).squareRoot()
            return (max(main.left, main.right), rms)
        }
        // A recording of the second device's output node takes what that device plays.
        _ = try levels(patch: try patch(second: "/dev/null")) { rack in
            #expect(rack.isRendered("phones") && !rack.isRendered("out"))
            rack.record("phones")
            #expect(![AudioTap.Source.master, .silence].contains(rack.driver.tap.source), "\(rack.driver.tap.source)")
        }
        let bass = try secondLevel(playing: "bass")
        #expect(bass.second > 0.001 && bass.main < 1e-6, "the bass on the second device only: \(bass)")
        let piano = try secondLevel(playing: "piano")
        #expect(piano.main > 0.001 && piano.second < 1e-6, "the piano on the main device only: \(piano)")
    }
}
