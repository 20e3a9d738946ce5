import Foundation
import Hub
import Plugins
import RenderCore
import Synchronization
import TestSupport
import Testing

/// Isolated plugin nodes (docs/plugins.md, "Isolated plugins"): the plugin runs in a real
/// child process (`midihub plugin-child`, the binary the tests built) through shared memory,
/// and sounds as the same plugin in this process; the fixture plugin that crashes, hangs or
/// aborts on command, and `kill -9` from outside, take down only the child — its block is
/// silent, the end is told with its reason, and a new child plays on with the node's values.
@Suite(.serialized) struct IsolatedPluginTests {
    static let fault = "urn:midihub:fixture:fault"

    /// What the tests' isolated nodes run: the built `midihub`; a deadline long enough that a
    /// child on a loaded test machine is never late (a missed deadline is its own test).
    static func isolation(deadlineShare: Double = 2_000, restarts: Int = 5) -> PluginIsolation {
        PluginIsolation(byDefault: true, executable: BuiltMidihub.path, deadlineShare: deadlineShare, hangSeconds: 0.5,
                        maximumRestarts: restarts)
    }

    /// What isolated nodes told and logged.
    final class Told: Sendable {
        let events = Mutex<[PluginChildEvent]>([])
        let lines = Mutex<[String]>([])
    }

    /// The fixture's plugins, isolated, their news and lines `told`.
    final class Host: Sendable {
        let plugins: InstalledPlugins
        let told = Told()

        init(searchPath: String = FixturePlugins.folder.path, isolation: PluginIsolation = IsolatedPluginTests.isolation()) {
            let told = told
            plugins = InstalledPlugins(searchPath: searchPath, isolation: isolation, report: { line in told.lines.withLock { $0.append(line) } })
            plugins.onChildEvent { _, event in told.events.withLock { $0.append(event) } }
        }

        func node(_ uri: String, isolated: Bool = true) throws -> any PluginNode {
            var descriptor = try plugins.descriptor(for: uri)
            descriptor.isolated = isolated
            let node = try #require(plugins.makeNode(descriptor))
            node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 256))
            return node
        }

        /// Waits (up to 10 s) until `event` was told.
        func wait(for event: (PluginChildEvent) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if told.events.withLock({ $0.contains(where: event) }) { return true }
                usleep(10_000)
            }
            return false
        }
    }

    /// One block of `frames` through `node`: its left channel, the bus holding `input` first.
    func block(_ node: any Node, input: Float, events: [RenderEvent] = [], position: Int64 = 0) -> [Float] {
        let bus = AudioBuffer(channels: 2, capacity: 256)
        bus.left.update(repeating: input, count: 256)
        bus.right.update(repeating: input, count: 256)
        events.withUnsafeBufferPointer { events in
            node.process(ProcessContext(frames: 256, events: events, bus: bus.bus, host: HostSync(samplePosition: position)))
        }
        return Array(UnsafeBufferPointer(start: bus.left, count: 256))
    }

    func parameter(_ node: any Node, _ name: String) throws -> UInt32 {
        try #require(node.parameters.first { $0.name == name }).id
    }

    @Test func anIsolatedNodeRunsInAChildAndSoundsAsInProcess() throws {
        let host = Host()
        let isolated = try host.node(Self.fault), inProcess = try host.node(Self.fault, isolated: false)
        #expect(isolated is IsolatedPluginNode && inProcess is LV2Node)
        let child = try #require((isolated as? IsolatedPluginNode)?.childProcess)
        #expect(child != getpid() && kill(child, 0) == 0, "the plugin runs in a process of its own")
        let gain = try parameter(isolated, "gain")
        let change = [RenderEvent.parameter(node: 0, id: gain, value: 0.25, frame: 100)]
        for node in [isolated, inProcess] { _ = block(node, input: 1) }
        let outputs = [isolated, inProcess].map { block($0, input: 0.5, events: change) }
        #expect(outputs[0] == outputs[1], "sample for sample, the change at its frame")
        #expect(outputs[0][99] == 0.5 && outputs[0][100] == 0.125)
    }

    @Test func aRealInstrumentSoundsTheSameIsolated() throws {
        let host = Host(searchPath: "/usr/lib/lv2")
        let uri = "http://drobilla.net/plugins/mda/EPiano"
        let isolated = try host.node(uri), inProcess = try host.node(uri, isolated: false)
        let note = [RenderEvent(frame: 17, kind: .noteOn, channel: 0, data1: 60, data2: 100)]
        let rendered = [isolated, inProcess].map { node in
            (0..<8).flatMap { index in block(node, input: 0, events: index == 0 ? note : []) }
        }
        #expect(rendered[0].contains { abs($0) > 0.01 }, "EPiano plays the note in its child")
        #expect(rendered[0] == rendered[1])
    }

    @Test func aCrashSilencesOnlyItsBlockAndTheChildComesBackWithItsValues() throws {
        let host = Host()
        let node = try host.node(Self.fault)
        let (gain, fault) = (try parameter(node, "gain"), try parameter(node, "fault"))
        #expect(block(node, input: 1, events: [.parameter(node: 0, id: gain, value: 0.5, frame: 0)]).allSatisfy { $0 == 0.5 })
        let crashed = block(node, input: 1, events: [.parameter(node: 0, id: fault, value: 1, frame: 0)], position: 256)
        #expect(crashed.allSatisfy { $0 == 0 }, "the effect's block is silence")
        #expect(host.wait { $0 == .crashed(signal: "SIGSEGV", status: nil) })
        #expect(host.wait { if case .restarted = $0 { true } else { false } })
        #expect(block(node, input: 1, position: 512).allSatisfy { $0 == 0.5 }, "the new child plays with the gain it had")
        #expect(host.told.lines.withLock { $0 }.contains("LV2 plugin 'midihub fixture: fault' (isolated) crashed (SIGSEGV); its node is "
            + "silent until it runs again (the rest of the hub plays on)"))
    }

    @Test func anAbortIsACrashWithItsSignal() throws {
        let host = Host()
        let node = try host.node(Self.fault)
        _ = block(node, input: 1)  // the fault the plugin starts with is none
        _ = block(node, input: 1, events: [.parameter(node: 0, id: try parameter(node, "fault"), value: 3, frame: 0)], position: 256)
        #expect(host.wait { $0 == .crashed(signal: "SIGABRT", status: nil) }, "told: \(host.told.events.withLock { $0 })")
        #expect(host.wait { if case .restarted = $0 { true } else { false } })
        #expect(block(node, input: 1, position: 512).allSatisfy { $0 == 1 })
    }

    @Test func aHungChildIsKilledAndRestarted() throws {
        let host = Host()
        let node = try host.node(Self.fault)
        _ = block(node, input: 1)  // the fault the plugin starts with is none
        let started = Date()
        let hung = block(node, input: 1, events: [.parameter(node: 0, id: try parameter(node, "fault"), value: 2, frame: 0)], position: 256)
        #expect(hung.allSatisfy { $0 == 0 }, "silent: the watcher took it for hung and woke the wait")
        #expect(Date().timeIntervalSince(started) < 5, "the block did not wait for its deadline (seconds at this share)")
        #expect(host.wait { $0 == .hung })
        #expect(host.wait { if case .restarted = $0 { true } else { false } })
        #expect(block(node, input: 1, position: 512).allSatisfy { $0 == 1 })
    }

    @Test func aChildKilledFromOutsideComesBack() throws {
        let host = Host()
        let node = try #require(try host.node(Self.fault) as? IsolatedPluginNode)
        let first = try #require(node.childProcess)
        kill(first, SIGKILL)
        #expect(host.wait { $0 == .crashed(signal: "SIGKILL", status: nil) })
        #expect(host.wait { if case .restarted = $0 { true } else { false } })
        #expect(node.childProcess != first)
        #expect(block(node, input: 1).allSatisfy { $0 == 1 })
    }

    @Test func aChildThatCrashesAsItStartsIsGivenUpOn() throws {
        let host = Host(isolation: Self.isolation(restarts: 2))
        let node = try host.node(Self.fault)
        _ = block(node, input: 1, events: [.parameter(node: 0, id: try parameter(node, "fault"), value: 4, frame: 0)])
        // Each new child starts with `crash always` and crashes in its first block.
        for position in 1...40 where !host.told.events.withLock({ $0.contains(.gaveUp(tries: 3)) }) {
            _ = block(node, input: 1, position: Int64(position) * 256)
            usleep(50_000)
        }
        #expect(host.wait { $0 == .gaveUp(tries: 3) })
        #expect(block(node, input: 1, position: 1 << 20).allSatisfy { $0 == 0 }, "given up: silent")
        #expect(host.told.lines.withLock { $0 }.contains("LV2 plugin 'midihub fixture: fault' (isolated) ended 3 times in a row soon after "
            + "it started; its node stays silent (fix: remove the node, or load it with another preset or plugin)"))
    }

    @Test func aLateChildLeavesItsBlockSilentAndRunsOn() throws {
        // A deadline of 20 blocks (107 ms), and a child stopped (SIGSTOP) past it for one block:
        // that block is silent and counted, and once it runs again (SIGCONT, well inside the
        // hang time) the node plays on with the same child — late is not gone.
        let host = Host(isolation: Self.isolation(deadlineShare: 20))
        let node = try #require(try host.node(Self.fault) as? IsolatedPluginNode)
        let child = try #require(node.childProcess)
        #expect(block(node, input: 1).allSatisfy { $0 == 1 })
        kill(child, SIGSTOP)
        #expect(block(node, input: 1, position: 256).allSatisfy { $0 == 0 }, "the late block is silent")
        #expect(node.silentBlockCount == 1)
        kill(child, SIGCONT)
        usleep(100_000)
        #expect(block(node, input: 1, position: 512).allSatisfy { $0 == 1 }, "the next block plays")
        #expect(node.childProcess == child)
        #expect(host.told.events.withLock { $0 }.isEmpty, "late is not gone: the child runs on")
    }

    @Test func theDocsPatchRunsItsPluginInAChild() throws {
        // docs/plugins.md's example, as written.
        let blocks = try Repository.blocks(testedBy: "Tests/PluginsTests/IsolatedPluginTests.swift")
            .filter { $0.marker?.hasSuffix(" theDocsPatchRunsItsPluginInAChild") == true }
        try #require(blocks.count == 1, "docs/plugins.md marks no example for this test")
        let host = Host(searchPath: "/usr/lib/lv2", isolation: Self.isolation(deadlineShare: 2_000))
        let patch = try Patch.parse(yaml: blocks[0].text, file: blocks[0].description, registry: NodeRegistry().with(plugins: host.plugins))
        guard case .unit(let descriptor)? = patch.graph.node("piano")?.body else { Issue.record("no piano unit"); return }
        #expect(descriptor.isolated == true)
        let node = try #require(host.plugins.makeNode(descriptor) as? IsolatedPluginNode, "an isolated node")
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 256))
        #expect(node.childProcess.map { kill($0, 0) == 0 } == true, "its plugin runs in a child process")
        let played = block(node, input: 0, events: [RenderEvent(frame: 0, kind: .noteOn, channel: 0, data1: 60, data2: 100)])
        #expect(played.contains { abs($0) > 0.001 }, "the isolated EPiano plays")
    }

    /// A child dies with the thread that started it (`PR_SET_PDEATHSIG`): prepared on a thread
    /// that then ends, as the control side's come and go, it must live on.
    @Test func aChildOutlivesTheThreadThatPreparedIt() throws {
        let host = Host()
        var descriptor = try host.plugins.descriptor(for: Self.fault)
        descriptor.isolated = true
        let node = try #require(host.plugins.makeNode(descriptor) as? IsolatedPluginNode)
        let prepared = DispatchSemaphore(value: 0)
        let preparing = Thread {
            node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 256))
            prepared.signal()
        }
        preparing.start()
        prepared.wait()
        usleep(300_000)  // the thread has ended
        #expect(host.told.events.withLock { $0 }.isEmpty, "no child ended")
        #expect(node.childProcess.map { kill($0, 0) == 0 } == true)
        #expect(block(node, input: 1).allSatisfy { $0 == 1 })
    }

    @Test func aPresetSavedFromAnIsolatedNodeIsFoundByItsLabel() throws {
        let folder = try PluginPresetSaveTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let host = Host(searchPath: "\(folder):/usr/lib/lv2")
        let amp = try host.plugins.descriptor(for: "eg-amp")
        let node = try host.node("eg-amp")
        let saved = try host.plugins.savePreset(of: amp, label: "Quiet Room", values: ["gain": -7.5], running: node)
        #expect(saved.bundle == folder + "/Simple_Amplifier_Quiet_Room.preset.lv2", "written by the child, where lilv finds it")
        #expect(try host.plugins.presetValues(of: amp, preset: "quiet room") == ["gain": -7.5], "found at once, by its label")
    }

    @Test func theOwnStateAndFilesGoThroughTheChild() throws {
        let host = Host(searchPath: "/usr/lib/lv2")
        let node = try host.node("http://lv2plug.in/plugins/eg-sampler")
        let sample = "/usr/lib/lv2/eg-sampler.lv2/click.wav"
        try node.setFile("sample", to: sample)
        _ = block(node, input: 0)
        usleep(200_000)
        _ = block(node, input: 0, position: 256)
        #expect(node.ownState(files: nil)?.contains("click.wav") == true)
        #expect(throws: PluginRefusal.self) { try node.setFile("nothing", to: sample) }
    }
}
