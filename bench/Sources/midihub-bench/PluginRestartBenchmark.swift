import Foundation
import Plugins
import RenderCore
import Synchronization

extension BenchmarkRow {
    /// How long an isolated plugin node is gone after its plugin crashes: the tests' fault
    /// plugin (Tests/Fixtures/lv2, built here with cc), isolated (the release binary's
    /// `plugin-child`), made to crash (SIGSEGV) in `run()`; the time from the crash's block to
    /// the new child running again with the node's values, the median of 5 fresh nodes, against
    /// the same node's first start (`prepare`: spawning the child, which loads the plugin).
    @Sendable static func isolatedRestart(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let midihub = try Renderers.find(in: context).midihub.path
        let folder = try buildFaultPlugin(in: context)
        let restarts = Mutex<[Double]>([])
        let plugins = InstalledPlugins(searchPath: folder.path, isolation: PluginIsolation(byDefault: true, executable: midihub))
        plugins.onChildEvent { _, event in
            if case .restarted(let after) = event { restarts.withLock { $0.append(after) } }
        }
        let descriptor = try plugins.descriptor(for: "urn:midihub:fixture:fault")
        var starts: [Double] = []
        for round in 1...5 {
            guard let node = plugins.makeNode(descriptor),
                  let fault = node.parameters.first(where: { $0.name == "fault" })?.id else {
                throw BenchmarkError(description: "the fault plugin did not load from \(folder.path)")
            }
            let clock = ContinuousClock(), began = clock.now
            node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
            starts.append(Double((clock.now - began).components.attoseconds) * 1e-18 + Double((clock.now - began).components.seconds))
            let bus = AudioBuffer(channels: 2, capacity: 64)
            for (block, events) in [[], [RenderEvent.parameter(node: 0, id: fault, value: 1, frame: 0)]].enumerated() {
                events.withUnsafeBufferPointer { events in
                    node.process(ProcessContext(frames: 64, events: events, bus: bus.bus, host: HostSync(samplePosition: Int64(block) * 64)))
                }
            }
            let deadline = Date().addingTimeInterval(30)
            while restarts.withLock({ $0.count }) < round, Date() < deadline { usleep(5_000) }
            guard restarts.withLock({ $0.count }) == round else { throw BenchmarkError(description: "the fault plugin did not come back in 30 s") }
        }
        let median = { (values: [Double]) in values.sorted()[values.count / 2] }
        return BenchmarkResult(title: "isolated plugin back after a crash (SIGSEGV in run()), median of 5, ms (the fault fixture)",
                               unit: "ms", midihub: median(restarts.withLock { $0 }) * 1e3, anchorName: "its first start",
                               anchor: median(starts) * 1e3, lowerIsBetter: true)
    }

    /// The fault plugin's bundle, built into the data folder (its Turtle copied, its C compiled).
    private static func buildFaultPlugin(in context: BenchmarkContext) throws -> URL {
        let source = context.repository.appendingPathComponent("Tests/Fixtures/lv2/midihub-fixture.lv2")
        let folder = context.dataFolder.appendingPathComponent("lv2-fixture")
        let bundle = folder.appendingPathComponent("midihub-fixture.lv2")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        for file in ["manifest.ttl", "fixture.ttl"] {
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: bundle.appendingPathComponent(file))
        }
        _ = try ChildProcess.run(URL(fileURLWithPath: "/usr/bin/cc"), ["-shared", "-fPIC", "-O2", "-o",
                                 bundle.appendingPathComponent("fixture.so").path, source.appendingPathComponent("fixture.c").path])
        return folder
    }
}
