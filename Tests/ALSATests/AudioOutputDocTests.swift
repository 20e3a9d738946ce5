import ALSA
import Foundation
import Testing
import TestSupport

/// The examples of docs/audio-output.md that need no sound card, with real alsa-lib: the
/// sketch (line for line, DocsTests/SwiftSnippetTests checks it) plays through the `file`
/// plugin, and the `aplay` line writes the raw file it promises.
@Suite struct AudioOutputDocTests {
    /// The sketch's `engine`: 440 Hz blocks, each kept to compare with what was played.
    struct SineEngine {
        var rendered: [Float] = []
        var blocks = 0

        mutating func render(into block: inout [Float]) {
            let frames = block.count / 2
            for frame in 0..<frames {
                let value = Float(0.5 * sin(2 * Double.pi * 440 * Double(blocks * frames + frame) / 48_000))
                block[2 * frame] = value
                block[2 * frame + 1] = -value
            }
            rendered += block
            blocks += 1
        }
    }

    @Test func audioOutputDocSketchPlaysTheEnginesBlocks() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-sketch-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        // On a thread of its own: the sketch asks for realtime priority for its thread.
        let (format, rendered) = try onThread(message: "the sketch's loop never ended") {
            try Self.runSketch(name: "file:\"\(path)\",raw")
        }
        #expect(format == .float32LE, "the file plugin takes the first format offered")
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let played = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(played.count == 100 * 256 * 2)
        #expect(played == rendered, "the file holds other samples than the engine's blocks")
    }

    /// The sketch, with `engine` playing 100 blocks; returns the device's format and what
    /// the engine rendered.
    static func runSketch(name: String) throws -> (PCMSampleFormat, [Float]) {
        var engine = SineEngine()
        var playing: Bool { engine.blocks < 100 }

        let device = try PCMDevice(name: name, configuration: PCMConfiguration(periodFrames: 256))
        // Render with device.settings.sampleRate and blocks of device.settings.periodFrames.
        if case .denied(let warning) = PCMRealtimePriority.requestForCurrentThread() { print(warning) }
        var block = [Float](repeating: 0, count: device.settings.periodFrames * device.settings.channels)
        while playing {
            engine.render(into: &block)
            try block.withUnsafeBufferPointer { try device.write(frames: $0) }
        }
        try device.drain()
        device.close()
        return (device.settings.format, engine.rendered)
    }

    /// The block of docs/audio-output.md marked for this test: run as written, it writes
    /// one second of 48 kHz stereo S16 into /tmp/out.raw without a sound card.
    @Test func aplayThroughTheFilePluginWritesTheRawFile() throws {
        let blocks = try Repository.blocks(in: "docs/audio-output.md").filter {
            $0.isTested(by: "Tests/ALSATests/AudioOutputDocTests.swift") && $0.language != "swift"
        }
        try #require(blocks.count == 1, "the aplay block of docs/audio-output.md is not marked for this test")
        let output = URL(fileURLWithPath: "/tmp/out.raw")
        try? FileManager.default.removeItem(at: output)
        defer { try? FileManager.default.removeItem(at: output) }
        let run = try ShellScript.run(blocks[0].text, in: Repository.root)
        #expect(run.status == 0, "\(blocks[0]) failed: \(run.output)")
        let written = try Data(contentsOf: output)
        #expect(written.count == 48_000 * 2 * 2, "one second of stereo S16")
    }
}
