import AllocationCounter
import AudioHost
import Foundation
import RenderCore
import Synchronization
import Testing

/// The audio input generator against real alsa-lib: its capture device is the `file`
/// plugin reading a raw tone (over a `null` PCM, which captures as fast as it is asked), so
/// the capture thread, the ring and the render side all run as in the daemon.
@Suite(.serialized) struct AudioInputNodeTests {
    static let frames = 256
    static let format = RenderFormat(sampleRate: 48_000, maxFrames: frames)

    /// A raw FLOAT_LE stereo file of 2 s of 440 Hz: left at 0.5, right at -0.25.
    private static func toneFile() throws -> URL {
        let samples = (0..<96_000).flatMap { frame -> [Float] in
            let value = 0.5 * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            return [value, -value / 2]
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-input-\(UUID().uuidString).raw")
        try samples.withUnsafeBytes { try Data($0).write(to: url) }
        return url
    }

    private static func input(reading url: URL, report: @escaping @Sendable (String) -> Void = { _ in }) -> AudioInputNode {
        AudioInputNode(device: "recorded", alsaConfiguration:
            "pcm.recorded { type file slave { pcm { type null } } file \"/dev/null\" infile \"\(url.path)\" format raw }",
                       report: report)
    }

    /// Renders blocks until one sounds (the input is buffered), at most 2 s.
    private static func firstSoundingBlock(_ node: AudioInputNode, into buffer: AudioBuffer) -> Bool {
        for _ in 0..<200 {
            buffer.bus.clear(frames: frames)
            node.process(ProcessContext(frames: frames, events: UnsafeBufferPointer(start: nil, count: 0), bus: buffer.bus, host: HostSync()))
            if (0..<frames).contains(where: { buffer.bus.left[$0] != 0 }) { return true }
            usleep(10_000)
        }
        return false
    }

    /// Runs `body` on an input reading the tone, once its first block sounded (in `buffer`).
    private static func withSoundingInput(_ body: (AudioInputNode, AudioBuffer) throws -> Void) throws {
        let url = try toneFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let node = input(reading: url)
        node.prepare(format: format)
        let buffer = AudioBuffer(channels: 2, capacity: frames)
        try #require(firstSoundingBlock(node, into: buffer), "the input never sounded")
        try body(node, buffer)
    }

    @Test func theCapturedToneComesOutUnchangedAtUnityGain() throws {
        try Self.withSoundingInput { node, buffer in
            // A whole block of the tone, frame for frame: right is left times -1/2 and the
            // block follows the sine's recurrence sin(n+1) + sin(n-1) = 2 cos(w) sin(n).
            let twoCos = Float(2 * cos(2 * Double.pi * 440 / 48_000))
            for i in 0..<Self.frames {
                #expect(abs(buffer.bus.right[i] + buffer.bus.left[i] / 2) < 1e-6)
            }
            for i in 1..<Self.frames - 1 {
                let predicted = twoCos * buffer.bus.left[i] - buffer.bus.left[i - 1]
                #expect(abs(buffer.bus.left[i + 1] - predicted) < 1e-4, "frame \(i + 1) is not the tone's")
            }
            #expect((0..<Self.frames).map { abs(buffer.bus.left[$0]) }.max()! > 0.45)
            #expect(node.outputValues.load(AudioInputNode.Output.level.rawValue) > -6.5)
        }
    }

    @Test func theGainParameterScalesTheInput() throws {
        // One 1024-frame block: the null PCM captures the whole file at once, so only the
        // first buffered stretch is tone. The gain, sent with every block, takes effect in
        // the first one that sounds and glides down over 10 ms (480 frames).
        let url = try Self.toneFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let node = Self.input(reading: url)
        let frames = 1_024
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: frames))
        let buffer = AudioBuffer(channels: 2, capacity: frames)
        let gain = [RenderEvent(frame: 0, kind: .parameter, parameter: AudioInputNode.Parameter.gain.rawValue, value: -12)]
        var sounded = false
        for _ in 0..<200 where !sounded {
            buffer.bus.clear(frames: frames)
            gain.withUnsafeBufferPointer { events in
                node.process(ProcessContext(frames: frames, events: events, bus: buffer.bus, host: HostSync()))
            }
            sounded = (0..<frames).contains { buffer.bus.left[$0] != 0 }
            if !sounded { usleep(10_000) }
        }
        try #require(sounded, "the input never sounded")
        let before = (0..<100).map { abs(buffer.bus.left[$0]) }.max()!
        let after = (500..<frames).map { abs(buffer.bus.left[$0]) }.max()!
        #expect(before > 0.1256, "the first frames glide from unity gain: peak \(before)")
        #expect(abs(after - 0.5 * 0.2512) < 0.005, "peak \(after) at -12 dB")
    }

    @Test func anInputThatCannotOpenSaysSoOnceAndStaysSilent() throws {
        let reports = Mutex<[String]>([])
        let node = AudioInputNode(device: "hw:97,0") { line in reports.withLock { $0.append(line) } }
        node.prepare(format: Self.format)
        let buffer = AudioBuffer(channels: 2, capacity: Self.frames)
        #expect(!Self.firstSoundingBlock(node, into: buffer))
        let lines = reports.withLock { $0 }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("audio input: no capture device 'hw:97,0'") == true, "\(lines)")
    }

    @Test func renderingTheInputAllocatesNothing() throws {
        try Self.withSoundingInput { node, buffer in
            let gain = [RenderEvent(frame: 7, kind: .parameter, parameter: AudioInputNode.Parameter.gain.rawValue, value: -3)]
            let counted = AllocationCounter.session {
                AllocationCounter.watchCurrentThread()
                gain.withUnsafeBufferPointer { events in
                    for _ in 0..<2_000 {
                        node.process(ProcessContext(frames: Self.frames, events: events, bus: buffer.bus, host: HostSync()))
                    }
                }
            }
            #expect(counted == 0, "the audio input's render path allocated \(counted) times")
        }
    }
}
