import Plugins
import RenderCore
import Synchronization
import Testing

/// `buf-size:fixedBlockLength` and `powerOf2BlockLength`: a plugin that requires them (the
/// tests' own, Tests/Fixtures/lv2) runs only whole blocks of the engine's length — a
/// parameter change inside a block does not split it, a short last block is padded — and a
/// block length that is no power of two leaves it silent, said in one line.
@Suite struct FixedBlockTests {
    let uri = "urn:midihub:fixture:blocks"

    func run(_ node: any Node, frames: Int, capacity: Int, input: Float, events: [RenderEvent] = []) -> [Float] {
        let bus = AudioBuffer(channels: 2, capacity: capacity)
        bus.left.update(repeating: input, count: capacity)
        bus.right.update(repeating: input, count: capacity)
        events.withUnsafeBufferPointer { events in
            node.process(ProcessContext(frames: frames, events: events, bus: bus.bus, host: HostSync()))
        }
        return Array(UnsafeBufferPointer(start: bus.left, count: frames))
    }

    @Test func aPluginThatRequiresFixedBlocksRunsOnlyWholeOnes() throws {
        let plugins = FixturePlugins.plugins
        let node = try #require(plugins.makeNode(try plugins.descriptor(for: uri)))
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 256))
        let gain = try #require(node.parameters.first { $0.name == "gain" }).id
        // Two changes inside the block: one run of 256 frames, both applied at its start.
        let changed = run(node, frames: 256, capacity: 256, input: 0.5,
                          events: [.parameter(node: 0, id: gain, value: 0.5, frame: 100), .parameter(node: 0, id: gain, value: 0.25, frame: 200)])
        #expect(changed.allSatisfy { $0 == 0.125 }, "the block at the last value, from its start")
        // A short block (an offline render's last): the plugin still runs 256 frames.
        let short = run(node, frames: 100, capacity: 256, input: 1)
        #expect(short.allSatisfy { $0 == 0.25 })
        #expect((node.outputValues.load(0), node.outputValues.load(1)) == (256, 256), "its shortest and longest run()")
    }

    @Test func aBlockOfNoPowerOfTwoLeavesItSilentInOneLine() throws {
        let lines = Mutex<[String]>([])
        let plugins = InstalledPlugins(searchPath: FixturePlugins.folder.path, report: { line in lines.withLock { $0.append(line) } })
        let node = try #require(plugins.makeNode(try plugins.descriptor(for: uri)))
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 300))
        #expect(lines.withLock { $0 } == ["LV2 plugin 'midihub fixture: fixed blocks' runs only blocks of a power of two frames, and the "
            + "engine's are 300; its node stays silent (fix: use a period of 64, 128, 256, 512 or 1024 frames)"])
    }
}
