import Glibc
import Hub
import Plugins
import RenderCore
import Synchronization
import Testing
import TestSupport

/// LV2 plugins Debian installs (scripts/install-deps: lv2-examples, mda-lv2), hosted as
/// render nodes: parameters at their frames, MIDI at its frames, the bus as a graph plays it.
@Suite struct LV2NodeTests {
    static let plugins = InstalledPlugins()
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 512)

    /// A node for `reference`, prepared for `format`.
    func node(_ reference: String) throws -> LV2Node {
        let descriptor = try Self.plugins.descriptor(for: reference)
        let node = try #require(Self.plugins.makeNode(descriptor) as? LV2Node)
        node.prepare(format: format)
        return node
    }

    /// One block of `frames` through `node`, the bus starting at `input` on both sides.
    func render(_ node: any Node, frames: Int = 512, input: Float = 0, events: [RenderEvent] = []) -> (left: [Float], right: [Float]) {
        let bus = AudioBuffer(channels: 2, capacity: frames)
        bus.left.update(repeating: input, count: frames)
        bus.right.update(repeating: input, count: frames)
        events.withUnsafeBufferPointer { events in
            node.process(ProcessContext(frames: frames, events: events, bus: bus.bus, host: HostSync()))
        }
        return (Array(UnsafeBufferPointer(start: bus.left, count: frames)), Array(UnsafeBufferPointer(start: bus.right, count: frames)))
    }

    @Test func anEffectsControlInputsAreItsParametersBySymbol() throws {
        let amp = try Self.plugins.descriptor(for: "eg-amp")
        #expect(amp.kind == .effect)
        #expect(amp.name == "Simple Amplifier")
        #expect(amp.plugin?.uri == "http://lv2plug.in/plugins/eg-amp")
        let gain = try #require(amp.plugin?.parameters.first)
        #expect((gain.name, gain.range, gain.defaultValue, gain.unit) == ("gain", -90...24, 0, .decibels))
        #expect(NodeRegistry().type(for: amp)?.parameters.map(\.name) == ["gain", "bypass"], "an effect takes the host's bypass")
    }

    @Test func aParameterChangeTakesEffectAtItsFrame() throws {
        let amp = try node("eg-amp")
        let gain = try #require(amp.parameters.first).id
        let out = render(amp, input: 0.5, events: [.parameter(node: 0, id: gain, value: -6.0206, frame: 0),
                                                   .parameter(node: 0, id: gain, value: 0, frame: 300)])
        // eg-amp is mono: it takes the mix of both sides and its output feeds both.
        #expect(out.left[0..<300].allSatisfy { abs($0 - 0.25) < 1e-4 }, "-6 dB up to frame 300")
        #expect(out.left[300...].allSatisfy { abs($0 - 0.5) < 1e-4 }, "0 dB from frame 300")
        #expect(out.left == out.right)
    }

    @Test func anInstrumentSoundsFromTheFrameOfItsNoteOn() throws {
        let jx10 = try node("http://drobilla.net/plugins/mda/JX10")
        #expect(jx10.descriptor.kind == .instrument)
        let first = render(jx10, events: [.noteOn(channel: 0, note: 60, velocity: 100, frame: 200)])
        #expect(first.left[..<200].allSatisfy { $0 == 0 }, "silent before the note")
        #expect(first.left[200...].contains { abs($0) > 1e-4 }, "sounding after it")
        let held = render(jx10)
        #expect(held.left.map(abs).max() ?? 0 > 0.01)
    }

    @Test func anInstrumentAddsToTheBus() throws {
        let epiano = try node("MDA ePiano")
        let out = render(epiano, input: 0.25)
        #expect(out.left.allSatisfy { abs($0 - 0.25) < 1e-6 }, "silence added to what the bus had")
    }

    @Test func aSamplerPlaysTheSampleItsDefaultStateLoads() throws {
        // eg-sampler requires state:loadDefaultState: its default state names click.wav.
        let sampler = try node("http://lv2plug.in/plugins/eg-sampler")
        let out = render(sampler, events: [.noteOn(channel: 0, note: 60, velocity: 127, frame: 64)])
        #expect(out.left[..<64].allSatisfy { $0 == 0 })
        #expect(out.left[64...].contains { abs($0) > 0.01 }, "the click sounds from the note's frame")
    }

    @Test func aReverbThatRequiresOptionsAndAWorkerRuns() throws {
        // Dragonfly (a DPF plugin) requires options:options, urid:map and worker:schedule.
        let plate = try node("urn:dragonfly:plate")
        #expect(plate.descriptor.kind == .effect)
        let bus = AudioBuffer(channels: 2, capacity: 512)
        var tail: Float = 0
        for block in 0..<40 {
            bus.left.update(repeating: 0, count: 512)
            bus.right.update(repeating: 0, count: 512)
            if block == 0 { (bus.left[0], bus.right[0]) = (1, 1) }
            plate.process(ProcessContext(frames: 512, events: UnsafeBufferPointer(start: nil, count: 0), bus: bus.bus, host: HostSync()))
            if block > 4 { tail = max(tail, (0..<512).map { abs(bus.left[$0]) }.max() ?? 0) }
        }
        #expect(tail > 1e-5, "the impulse rings on")
    }

    @Test func aMetronomeFollowsTheTransportsTimePosition() throws {
        // eg-metro clicks on each beat while the transport rolls, from time:Position.
        let metro = try node("http://lv2plug.in/plugins/eg-metro")
        #expect(metro.descriptor.kind == .generator)
        func loudBlocks(_ transport: HostSync.Transport, tempo: Double) -> [Int] {
            let bus = AudioBuffer(channels: 2, capacity: 512)
            var loud: [Int] = []
            for block in 0..<188 {  // two seconds
                bus.left.update(repeating: 0, count: 512)
                bus.right.update(repeating: 0, count: 512)
                let frames = Int64(block * 512)
                let beat = Double(frames) / 48_000 * tempo / 60
                let host = HostSync(samplePosition: frames, sampleRate: 48_000, tempo: tempo, beat: beat, bar: Int(beat / 4) + 1,
                                    barStartBeat: Double(Int(beat / 4) * 4), transport: transport)
                metro.process(ProcessContext(frames: 512, events: UnsafeBufferPointer(start: nil, count: 0), bus: bus.bus, host: host))
                if (0..<512).contains(where: { abs(bus.left[$0]) > 0.01 }) { loud.append(block) }
            }
            return loud
        }
        #expect(loudBlocks(.stopped, tempo: 120).isEmpty, "silent while the transport stands")
        var clicks: [Int] = [], previous = -10
        for block in loudBlocks(.playing, tempo: 120) {
            if block > previous + 1 { clicks.append(block) }
            previous = block
        }
        // 120 bpm: a click on each beat from the first, half a second (46.875 blocks of 512 frames) apart.
        #expect(clicks.count == 5 && clicks.first == 0, "clicks at blocks \(clicks)")
        #expect(zip(clicks, clicks.dropFirst()).allSatisfy { (46...48).contains($1 - $0) }, "clicks at blocks \(clicks)")
    }

    /// …and the node is taken apart (the plugin deactivated and freed, its worker joined) on
    /// the release queue, not on the thread that let go of it (the MIDI input thread, in the daemon).
    @Test func eventsBeyondTheAtomBufferAreLeftOutAndLoggedWhenTheNodeGoes() throws {
        let lines = Mutex<[String]>([])
        let test = UInt(bitPattern: Int(pthread_self()))
        let plugins = InstalledPlugins(report: { line in
            let here = UInt(bitPattern: Int(pthread_self()))
            lines.withLock { $0.append(here == test ? "on the thread that let go: \(line)" : line) }
        })
        do {
            let jx10 = try #require(plugins.makeNode(try plugins.descriptor(for: "mda JX10")))
            jx10.prepare(format: format)
            // 24 bytes an event: 8 KiB holds 340; a block of 500 leaves 160 out, and nothing blocks.
            _ = render(jx10, events: (0..<500).map { .controlChange(channel: 0, controller: 1, value: UInt8($0 % 128), frame: UInt32($0)) })
        }
        try waitUntil({ !lines.withLock { $0 }.isEmpty }, message: "the node was never taken apart")
        #expect(lines.withLock { $0 } == ["LV2 plugin 'MDA JX10': 160 event(s) did not fit into its 8192-byte atom buffer and were "
                                          + "left out (fix: send fewer events at once to this node)"])
    }

    @Test func aPluginMidihubCannotHostIsRefusedInOneLine() throws {
        #expect(throws: PluginRefusal("LV2 plugin 'Control Invert' has neither audio nor MIDI ports, so it plays no part in a graph",
                                      fix: "use an LV2 instrument, effect, generator or MIDI effect ('midihub plugins')")) {
            try Self.plugins.descriptor(for: "Control Invert")
        }
        #expect(throws: PluginRefusal("no LV2 plugin 'no-such-plugin' is installed",
                                      fix: "'midihub plugins' lists them; Debian packages plugins as mda-lv2, x42-plugins, …")) {
            try Self.plugins.descriptor(for: "no-such-plugin")
        }
    }
}
