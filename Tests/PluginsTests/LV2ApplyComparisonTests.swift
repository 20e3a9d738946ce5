import Foundation
import Plugins
import RenderCore
import Testing

/// An LV2 effect hosted by midihub sounds as lilv's own host, `lv2apply` (lilv-utils), makes
/// it sound: the same WAV and controls through both, sample for sample within float rounding.
/// (Effects whose sound does not depend on how long each `run()` is: lv2apply runs a plugin
/// one frame at a time, midihub a block at a time; an effect that works in sub-blocks, as
/// fomp's auto-wah, sounds a little different at each; swh's DC Offset Remover reads its
/// filter's state before it ever sets it, so its first samples are whatever the heap held:
/// `MALLOC_PERTURB_=165 lv2apply` gives 1.5e16.)
@Suite struct LV2ApplyComparisonTests {
    static let plugins = InstalledPlugins()

    /// A second of a seeded test signal: a sweep from 50 Hz to 10 kHz under noise, at 48 kHz.
    static let signal: [Float] = {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        var phase = 0.0
        return (0..<48_000).map { index in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Float(Int64(bitPattern: seed) >> 40) / Float(1 << 23) * 0.1
            phase += 2 * .pi * (50 * pow(200, Double(index) / 48_000)) / 48_000
            return Float(sin(phase)) * 0.5 + noise
        }
    }()

    @Test(arguments: [
        ("http://plugin.org.uk/swh-plugins/singlePara", ["gain": 12.0, "fc": 1000.0, "bw": 1.0]),
        ("http://plugin.org.uk/swh-plugins/bandpass_iir", ["center": 2000.0, "width": 800.0, "stages": 3]),
    ] as [(String, [String: Float])])
    func anEffectSoundsAsLv2applyMakesItSound(uri: String, controls: [String: Float]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lv2apply-\(getpid())-\(abs(uri.hashValue))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.wav"), output = folder.appendingPathComponent("out.wav")
        try FloatWAV.write(Self.signal, to: input)
        let lv2apply = Process()
        lv2apply.executableURL = URL(fileURLWithPath: "/usr/bin/lv2apply")
        lv2apply.arguments = ["-i", input.path, "-o", output.path]
            + controls.sorted { $0.key < $1.key }.flatMap { ["-c", $0.key, String($0.value)] } + [uri]
        try lv2apply.run()
        lv2apply.waitUntilExit()
        try #require(lv2apply.terminationStatus == 0, "lv2apply \(lv2apply.arguments ?? [])")
        let theirs = try FloatWAV.read(output)
        #expect(theirs.count == Self.signal.count)

        let descriptor = try Self.plugins.descriptor(for: uri)
        let node = try #require(Self.plugins.makeNode(descriptor))
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
        let events = try controls.map { name, value in
            RenderEvent.parameter(node: 0, id: try #require(node.parameters.first { $0.name == name }).id, value: value)
        }
        let bus = AudioBuffer(channels: 2, capacity: 512)
        var ours: [Float] = []
        for start in stride(from: 0, to: Self.signal.count, by: 512) {
            let frames = min(512, Self.signal.count - start)
            for frame in 0..<frames { (bus.left[frame], bus.right[frame]) = (Self.signal[start + frame], Self.signal[start + frame]) }
            (start == 0 ? events : []).withUnsafeBufferPointer { block in
                node.process(ProcessContext(frames: frames, events: block, bus: bus.bus, host: HostSync(sampleRate: 48_000)))
            }
            ours += UnsafeBufferPointer(start: bus.left, count: frames)
        }
        let difference = zip(ours, theirs).map { abs($0 - $1) }.max() ?? .infinity
        #expect(difference < 1e-5, "\(uri): largest difference \(difference)")
        #expect((ours.map(abs).max() ?? 0) > 0.01, "not silent")
    }
}

/// Mono 32-bit float WAV files, as lv2apply (libsndfile) reads and writes them.
enum FloatWAV {
    static func write(_ samples: [Float], to url: URL, rate: UInt32 = 48_000) throws {
        var data = Data()
        func append<Value: FixedWidthInteger>(_ value: Value) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); append(UInt32(36 + samples.count * 4))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); append(UInt32(16)); append(UInt16(3)); append(UInt16(1))
        append(rate); append(rate * 4); append(UInt16(4)); append(UInt16(32))
        data.append(contentsOf: Array("data".utf8)); append(UInt32(samples.count * 4))
        samples.withUnsafeBytes { data.append(contentsOf: $0) }
        try data.write(to: url)
    }

    /// The samples of the `data` chunk (other chunks, as libsndfile's `PEAK`, skipped).
    static func read(_ url: URL) throws -> [Float] {
        let bytes = [UInt8](try Data(contentsOf: url))
        func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24 }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = word(offset + 4)
            if bytes[offset..<offset + 4].elementsEqual("data".utf8) {
                return stride(from: offset + 8, to: min(offset + 8 + size, bytes.count) - 3, by: 4).map {
                    Float(bitPattern: UInt32(word($0)))
                }
            }
            offset += 8 + size + (size & 1)
        }
        return []
    }
}
