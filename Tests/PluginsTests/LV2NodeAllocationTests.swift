import AllocationCounter
import Hub
import MIDICore
import Plugins
import RenderCore
import Testing

/// The host's side of an LV2 node allocates nothing on the render thread: the atom
/// sequences, the transport's `time:Position`, the split at parameter changes, the worker's
/// answers and the mix into the bus use what `prepare` made (with plugins that allocate
/// nothing in `run()` themselves).
@Suite(.serialized) struct LV2NodeAllocationTests {
    @Test func renderingThousandsOfBlocksThroughLV2NodesAllocatesNothing() throws {
        let seen = AllocationCounter.session {
            AllocationCounter.watchCurrentThread()
            #expect([Int](repeating: 7, count: Int.random(in: 100...200)).count >= 100)
        }
        try #require(seen > 0, "the malloc counter (CMallocCounter) is not active: this test would prove nothing")
        let plugins = InstalledPlugins()
        let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)
        let nodes = try ["mda JX10", "eg-amp", "http://plugin.org.uk/swh-plugins/singlePara", "urn:dragonfly:plate",
                         "http://lv2plug.in/plugins/eg-metro"].map { name in
            let node = try #require(plugins.makeNode(try plugins.descriptor(for: name)))
            node.prepare(format: format)
            return node
        }
        let gain = try #require(nodes[1].parameters.first { $0.name == "gain" }).id
        let blocks: [[RenderEvent]] = (0..<8).map { (block: Int) -> [RenderEvent] in
            let note = UInt8(48 + block)
            let on = RenderEvent.noteOn(channel: 0, note: note, velocity: 100, frame: 3)
            let change = RenderEvent.parameter(node: 0, id: gain, value: -Float(block), frame: 20)
            return [on, change, RenderEvent.noteOff(channel: 0, note: note, frame: 40)]
        }
        let bus = AudioBuffer(channels: 2, capacity: 64)
        for node in nodes {
            func render(_ count: Int) {
                for block in 0..<count {
                    blocks[block % blocks.count].withUnsafeBufferPointer { events in
                        node.process(ProcessContext(frames: 64, events: events, bus: bus.bus, host: HostSync()))
                    }
                }
            }
            render(64)  // warm-up, not counted: the Swift runtime's metadata, the plugin's first blocks
            let counted = AllocationCounter.session {
                AllocationCounter.watchCurrentThread()
                render(2_000)
            }
            #expect(counted == 0, "\(counted) allocations while \(node.descriptor.name) rendered 2,000 blocks")
        }
    }
}

extension LV2NodeAllocationTests {
    /// A MIDI effect on the MIDI input thread: each event into its input sequence and the
    /// plugin's events read back allocate nothing (the output buffer kept, as the router keeps it).
    @Test func routingThousandsOfEventsThroughAnLV2MIDIEffectAllocatesNothing() throws {
        let plugins = InstalledPlugins()
        var fifths = try #require(plugins.makeProcessor(try plugins.descriptor(for: "eg-fifths")))
        var output: [TimedMIDI] = []
        output.reserveCapacity(16)
        let infos = fifths.parameterInfos, values: [String: Float] = [:]  // the node's values, as the graph keeps them
        func route(_ count: Int) {
            for index in 0..<count {
                let time = HostTime.zero + HostDuration(seconds: 1 + Double(index) / 1_000)
                let note = UInt8(48 + index % 24)
                output.removeAll(keepingCapacity: true)
                fifths.process(TimedMIDI(time: time, message: index % 2 == 0 ? .noteOn(channel: 0, note: note, velocity: 90)
                                                                                  : .noteOff(channel: 0, note: note, velocity: 0)),
                               parameters: ParameterValues(infos, set: values), into: &output)
            }
        }
        route(64)  // warm-up, not counted
        let counted = AllocationCounter.session {
            AllocationCounter.watchCurrentThread()
            route(4_000)
        }
        #expect(counted == 0, "\(counted) allocations while eg-fifths took 4,000 events")
        #expect(output.count == 2, "each event and its fifth")
    }
}

extension LV2NodeAllocationTests {
    /// An isolated node's render side — the copies into the shared region, the futex wake and
    /// wait, the copies back — allocates nothing either.
    @Test func renderingThousandsOfBlocksThroughAnIsolatedNodeAllocatesNothing() throws {
        let plugins = InstalledPlugins(isolation: IsolatedPluginTests.isolation())
        let node = try #require(plugins.makeNode(try plugins.descriptor(for: "mda JX10")) as? IsolatedPluginNode)
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
        let events = [RenderEvent.noteOn(channel: 0, note: 60, velocity: 100, frame: 3), RenderEvent.noteOff(channel: 0, note: 60, frame: 40)]
        let bus = AudioBuffer(channels: 2, capacity: 64)
        var host = HostSync()
        func render(_ count: Int) {
            for _ in 0..<count {
                events.withUnsafeBufferPointer { events in
                    node.process(ProcessContext(frames: 64, events: events, bus: bus.bus, host: host))
                }
                host.samplePosition += 64
            }
        }
        render(64)
        let counted = AllocationCounter.session {
            AllocationCounter.watchCurrentThread()
            render(2_000)
        }
        #expect(counted == 0, "\(counted) allocations while the isolated JX10 rendered 2,000 blocks")
        #expect(node.silentBlockCount == 0, "its child answered every block")
    }
}
