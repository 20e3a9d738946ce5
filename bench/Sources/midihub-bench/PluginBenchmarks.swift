import Foundation
import Plugins
import RenderCore
import Sequencer
import Synth

extension BenchmarkRow {
    /// The effect both hosts run, and its controls.
    static let effectURI = "http://plugin.org.uk/swh-plugins/singlePara"
    static let effectControls: [String: Float] = ["gain": 9, "fc": 1200, "bw": 1.5]

    /// An LV2 effect (swh's single-band parametric EQ) over a 120 s mono float WAV: midihub's
    /// host (`LV2Node`, 512-frame blocks: read the file, run, write the result) against lilv's
    /// own `lv2apply` on the same file and controls, as × real time of CPU seconds (user +
    /// system; best of 2). The host's overhead is what midihub adds around the plugin's `run()`.
    @Sendable static func lv2EffectVersusLv2apply(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let folder = context.dataFolder.appendingPathComponent("lv2")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let input = folder.appendingPathComponent("pink-120s.wav"), output = folder.appendingPathComponent("out.wav")
        let sox = try Timing.executable("sox", package: "sox")
        _ = try ChildProcess.best(of: 1, sox, ["-n", "-r", "48000", "-c", "1", "-b", "32", "-e", "floating-point", input.path,
                                               "synth", "120", "pinknoise", "vol", "0.5"])
        let seconds = try WAVReader(url: input).seconds
        let lv2apply = try Timing.executable("lv2apply", package: "lilv-utils")
        let theirs = try ChildProcess.best(of: 2, lv2apply, ["-i", input.path, "-o", output.path]
            + effectControls.sorted { $0.key < $1.key }.flatMap { ["-c", $0.key, String($0.value)] } + [effectURI])
        let ours = try (0..<2).map { _ in try hostEffect(input: input, output: output) }.min() ?? .infinity
        return BenchmarkResult(title: "LV2 effect (swh singlePara) over \(Int(seconds)) s of mono audio, host CPU",
                               unit: "× RT", midihub: seconds / ours, anchorName: "lv2apply", anchor: seconds / theirs.cpuSeconds)
    }

    /// CPU seconds of reading `input`, running it through the effect in 512-frame blocks
    /// and writing `output` (32-bit float).
    private static func hostEffect(input: URL, output: URL) throws -> Double {
        let started = processCPUSeconds()
        let samples = try WAVReader(url: input, readSamples: true).left
        let plugins = InstalledPlugins()
        guard let node = plugins.makeNode(try plugins.descriptor(for: effectURI)) else {
            throw BenchmarkError(description: "\(effectURI) is not installed (fix: apt-get install swh-lv2)")
        }
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
        let events = node.parameters.compactMap { info in
            effectControls[info.name].map { RenderEvent.parameter(node: 0, id: info.id, value: $0) }
        }
        let bus = AudioBuffer(channels: 2, capacity: 512)
        var result = [Float](repeating: 0, count: samples.count)
        for start in stride(from: 0, to: samples.count, by: 512) {
            let frames = min(512, samples.count - start)
            samples.withUnsafeBufferPointer { source in
                bus.left.update(from: source.baseAddress! + start, count: frames)
                bus.right.update(from: source.baseAddress! + start, count: frames)
            }
            (start == 0 ? events : []).withUnsafeBufferPointer { block in
                node.process(ProcessContext(frames: frames, events: block, bus: bus.bus, host: HostSync()))
            }
            result.withUnsafeMutableBufferPointer { $0.baseAddress!.advanced(by: start).update(from: bus.left, count: frames) }
        }
        // RIFF, then the format (IEEE float, mono, 48 kHz, 32 bits), then the samples.
        var file = Data("RIFF".utf8) + le(36 + result.count * 4) + Data("WAVEfmt ".utf8)
        file += le(16) + le(3, bytes: 2) + le(1, bytes: 2) + le(48_000) + le(48_000 * 4) + le(4, bytes: 2) + le(32, bytes: 2)
        file += Data("data".utf8) + le(result.count * 4)
        result.withUnsafeBytes { file.append(contentsOf: $0) }
        try file.write(to: output)
        return processCPUSeconds() - started
    }

    /// `value` in `bytes` little-endian bytes.
    private static func le(_ value: Int, bytes: Int = 4) -> Data {
        Data((0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) })
    }

    /// The user and system CPU seconds of this process so far.
    private static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// A real-shaped song (`ShapedGMSongs.leads`: 180 s of lead lines) and `sequences/`
    /// rendered by `midihub render --instrument "mda JX10"` (an LV2 instrument, mda-lv2)
    /// against the same files through the built-in synth (CPU seconds, best of 2 per file).
    @Sendable static func lv2RenderJX10(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let files = [try ShapedGMSongs.write(.leads, into: context.dataFolder.appendingPathComponent("shapes"))]
            + sequenceFiles(in: context.repository)
        let wav = context.dataFolder.appendingPathComponent("lv2-render.wav")
        var jx10 = (audio: 0.0, cpu: 0.0), synth = (audio: 0.0, cpu: 0.0)
        for file in files {
            let arguments = ["render", file.path, "-o", wav.path, "--sample-rate", "48000"]
            jx10.cpu += try ChildProcess.best(of: 2, renderers.midihub, arguments + ["--instrument", "mda JX10"]).cpuSeconds
            jx10.audio += try WAVReader(url: wav).seconds
            synth.cpu += try ChildProcess.best(of: 2, renderers.midihub, renderers.midihubArguments(file, output: wav)).cpuSeconds
            synth.audio += try WAVReader(url: wav).seconds
        }
        return BenchmarkResult(title: "offline render through mda JX10 (LV2), \(files.count) files (180 s of leads + sequences/)",
                               unit: "× RT", midihub: jx10.audio / jx10.cpu, anchorName: "built-in synth",
                               anchor: synth.audio / synth.cpu)
    }
}

extension BenchmarkRow {
    /// The render thread's p99.9 time of a 64-frame block at 48 kHz through 8 LV2 nodes —
    /// two chains of an instrument (mda JX10, a held 4-note chord) into three effects (swh's
    /// parametric EQ, eg-amp, fomp's reverb) — against the same graph of built-ins (the synth,
    /// the equalizer, a mixer strip, the reverb), over 20,000 blocks each.
    @Sendable static func lv2GraphBlock(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let plugins = InstalledPlugins()
        func plugin(_ name: String) throws -> any Node {
            guard let node = plugins.makeNode(try plugins.descriptor(for: name)) else {
                throw BenchmarkError(description: "no LV2 plugin '\(name)' (fix: scripts/install-deps installs mda-lv2, swh-lv2, fomp)")
            }
            return node
        }
        let chain = ["mda JX10", effectURI, "eg-amp", "http://drobilla.net/plugins/fomp/reverb"]
        let lv2 = try (chain + chain).map(plugin)
        let bank = try PresetBankLoader.load(directory: context.repository.appendingPathComponent("patches/presets").path)
        func builtIns() -> [any Node] { [SynthNode(bank: bank, voiceCapacity: 16), EqualizerNode(), MixerStripNode(), ReverbNode()] }
        let wiring = AudioWiring(inputs: [[], [0], [1], [2], [], [4], [5], [6]], toOutput: [3, 7])
        let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)
        let ours = p999BlockSeconds(RenderProgram(nodes: lv2, wiring: wiring, format: format), instruments: [0, 4])
        let anchor = p999BlockSeconds(RenderProgram(nodes: builtIns() + builtIns(), wiring: wiring, format: format), instruments: [0, 4])
        return BenchmarkResult(title: "render thread p99.9 of a 64-frame block, 8 LV2 nodes (2 × JX10 → EQ → amp → reverb), chords held",
                               unit: "µs", midihub: ours * 1e6, anchorName: "the same graph of built-ins", anchor: anchor * 1e6,
                               lowerIsBetter: true)
    }

    /// The same 8 LV2 nodes, each isolated (its plugin in a `midihub plugin-child` process of
    /// its own, the release binary), against the 8 in this process: what isolation adds to the
    /// render thread's p99.9 block at 64 frames, the blocks a child missed its deadline in said.
    @Sendable static func isolatedGraphBlock(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let midihub = try Renderers.find(in: context).midihub.path
        let chain = ["mda JX10", effectURI, "eg-amp", "http://drobilla.net/plugins/fomp/reverb"]
        func nodes(_ plugins: InstalledPlugins) throws -> [any Node] {
            try (chain + chain).map { name in
                guard let node = plugins.makeNode(try plugins.descriptor(for: name)) else {
                    throw BenchmarkError(description: "no LV2 plugin '\(name)' (fix: scripts/install-deps installs mda-lv2, swh-lv2, fomp)")
                }
                return node
            }
        }
        let isolatedPlugins = InstalledPlugins(isolation: PluginIsolation(byDefault: true, executable: midihub))
        let isolated = try nodes(isolatedPlugins), inProcess = try nodes(InstalledPlugins())
        let wiring = AudioWiring(inputs: [[], [0], [1], [2], [], [4], [5], [6]], toOutput: [3, 7])
        let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)
        let ours = p999BlockSeconds(RenderProgram(nodes: isolated, wiring: wiring, format: format), instruments: [0, 4])
        let late = isolated.compactMap { ($0 as? IsolatedPluginNode)?.silentBlockCount }.reduce(0, +)
        let anchor = p999BlockSeconds(RenderProgram(nodes: inProcess, wiring: wiring, format: format), instruments: [0, 4])
        return BenchmarkResult(title: "render thread p99.9 of a 64-frame block, the 8 LV2 nodes above isolated (8 processes; "
                                   + "\(late) node-blocks past the deadline of 20,500 × 8)",
                               unit: "µs", midihub: ours * 1e6, anchorName: "the same 8 in the daemon's process", anchor: anchor * 1e6,
                               lowerIsBetter: true)
    }

    /// Holds a 4-note chord on each of `instruments`, then the 99.9th percentile of a
    /// block's wall time over 20,000 blocks (after 500 not counted).
    private static func p999BlockSeconds(_ program: RenderProgram, instruments: [Int]) -> Double {
        let engine = RenderEngine(crossfade: .off)
        engine.install(program)
        for node in instruments {
            for (index, note) in [48, 55, 60, 64].enumerated() {
                engine.events.push(RenderEvent(frame: UInt32(index), kind: .noteOn, channel: 0, data1: UInt8(note), data2: 90,
                                               node: UInt16(node)))
            }
        }
        let output = AudioBuffer(channels: 2, capacity: 64)
        var host = HostSync(sampleRate: 48_000, transport: .playing)
        for _ in 0..<500 {
            engine.render(frames: 64, bus: output.bus, host: host)
            host = host.advanced(by: 64)
        }
        var times = [Double](repeating: 0, count: 20_000)
        let clock = ContinuousClock()
        for block in times.indices {
            let started = clock.now
            engine.render(frames: 64, bus: output.bus, host: host)
            let elapsed = clock.now - started
            times[block] = Double(elapsed.components.attoseconds) * 1e-18 + Double(elapsed.components.seconds)
            host = host.advanced(by: 64)
        }
        times.sort()
        return times[times.count * 999 / 1000]
    }
}

extension BenchmarkRow {
    /// Key to sound through an isolated instrument: 200 notes at random frames (0.25–0.3 s
    /// apart) into mda EPiano at 64-frame blocks, isolated (the release binary's `plugin-child`,
    /// the live deadline of half a block) and in this process; each note's latency is the frames
    /// from its event to the first sample above -60 dBFS. The goal is the same block: a child
    /// that misses a deadline leaves its block silent, which moves the onset a block or more.
    @Sendable static func isolatedKeyToSound(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let midihub = try Renderers.find(in: context).midihub.path
        let isolated = try keyToSoundFrames(InstalledPlugins(isolation: PluginIsolation(byDefault: true, executable: midihub)))
        let inProcess = try keyToSoundFrames(InstalledPlugins())
        func summary(_ frames: [Int]) -> String {
            let sorted = frames.sorted()
            return "median \(sorted[sorted.count / 2]), max \(sorted.last!)"
        }
        return BenchmarkResult(title: "key to sound through mda EPiano isolated, 200 notes at 64-frame blocks, max frames "
                                   + "(isolated \(summary(isolated.latencies)), \(isolated.silent) blocks late; in-process \(summary(inProcess.latencies)))",
                               unit: "frames", midihub: Double(isolated.latencies.max()!), anchorName: "the same in-process",
                               anchor: Double(inProcess.latencies.max()!), lowerIsBetter: true)
    }

    /// Each note's frames from its event to its sound through mda EPiano made by `plugins`,
    /// and the blocks an isolated node left silent.
    private static func keyToSoundFrames(_ plugins: InstalledPlugins) throws -> (latencies: [Int], silent: Int) {
        guard let node = plugins.makeNode(try plugins.descriptor(for: "http://drobilla.net/plugins/mda/EPiano")) else {
            throw BenchmarkError(description: "no mda EPiano (fix: scripts/install-deps installs mda-lv2)")
        }
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 64))
        var random = SplitMix64(state: 40)
        let starts = (0..<200).reduce(into: [Int]()) { frames, _ in
            frames.append((frames.last ?? 0) + 12_000 + Int(random.next() % 2_400))
        }
        let length = starts.last! + 12_000
        var output = [Float](repeating: 0, count: length)
        let bus = AudioBuffer(channels: 2, capacity: 64)
        var next = 0
        for block in stride(from: 0, to: length, by: 64) {
            var events: [RenderEvent] = []
            while next < starts.count, starts[next] < block + 64 {
                events.append(.noteOn(channel: 0, note: UInt8(48 + next % 24), velocity: 100, frame: UInt32(starts[next] - block)))
                next += 1
            }
            bus.left.update(repeating: 0, count: 64)
            bus.right.update(repeating: 0, count: 64)
            events.withUnsafeBufferPointer { events in
                node.process(ProcessContext(frames: 64, events: events, bus: bus.bus,
                                            host: HostSync(samplePosition: Int64(block), sampleRate: 48_000, transport: .playing)))
            }
            for frame in 0..<min(64, length - block) { output[block + frame] = bus.left[frame] }
        }
        let latencies = starts.map { start in
            (start..<min(start + 9_600, length)).first { abs(output[$0]) > 0.001 }.map { $0 - start } ?? 9_600
        }
        return (latencies, (node as? IsolatedPluginNode)?.silentBlockCount ?? 0)
    }
}
