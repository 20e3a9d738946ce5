import ALSA
import AudioHost
import Foundation
import RenderCore
import Sequencer
import Synth
import Testing
import TestSupport

/// The driver end to end without a sound card: alsa-lib's `file` plugin (over `null`,
/// which takes blocks as fast as they come) records the float samples it plays.
@Suite("Audio driver through alsa-lib's file plugin")
struct AudioDriverTests {
    static let bankFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("patches/presets").path

    private func scratchFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("midihub-driver-\(UUID().uuidString).raw").path
    }

    private func options(period: Int, tailSeconds: Double = 0.25) -> AudioDriverOptions {
        AudioDriverOptions(pcm: PCMConfiguration(periodFrames: period, formats: [.float32LE]),
                           realtimePriority: false, tailSeconds: tailSeconds)
    }

    /// The recorded interleaved stereo samples.
    private func samples(at path: String) throws -> [Float] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
    }

    private func nodes() throws -> [any Node] {
        StandardGraph(bank: try PresetBankLoader.load(directory: Self.bankFolder)).nodes
    }

    /// A schedule's playback ends on its own (at its end frame plus the tail).
    private func waitUntilStopped(_ driver: AudioDriver) throws {
        try driver.waitUntil({ !driver.isRunning },
                             message: "the driver still runs after its schedule ended (\(driver.counters.framesRendered) frames rendered)")
    }

    @Test(arguments: [64, 256, 1000])
    func aScheduleSoundsExactlyAsTheOfflineRenderHasIt(period: Int) throws {
        let entries: [RenderSchedule.Entry] = [
            .init(frame: 1_000, event: .noteOn(channel: 0, note: 69, velocity: 100)),
            .init(frame: 7_777, event: .noteOn(channel: 1, note: 76, velocity: 90)),
            .init(frame: 12_345, event: .noteOff(channel: 0, note: 69)),
            .init(frame: 20_001, event: .noteOff(channel: 1, note: 76)),
        ]
        let schedule = RenderSchedule(entries: entries, sampleRate: 48_000, endFrame: 24_000)
        let path = scratchFile()
        defer { try? FileManager.default.removeItem(atPath: path) }

        let driver = try AudioDriver(device: "file:\"\(path)\",raw", options: options(period: period))
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: try nodes(), format: driver.renderFormat))
        try driver.start(engine: engine, schedule: schedule)
        try waitUntilStopped(driver)
        try driver.stopWithDeadline()
        let played = try samples(at: path)

        let offline = OfflineRenderer(schedule: schedule, nodes: try nodes(), blockSize: period, tail: .fixed(seconds: 0.25))
        var expected = MemorySink()
        try offline.render(into: &expected)
        let frames = Int(offline.maximumFrames.index)
        #expect(played.count >= frames * 2)
        #expect(driver.counters.framesRendered >= Int64(frames))
        let left = stride(from: 0, to: frames * 2, by: 2).map { played[$0] }
        let right = stride(from: 1, to: frames * 2, by: 2).map { played[$0] }
        #expect(left == expected.left, "left channel differs from the offline render")
        #expect(right == expected.right, "right channel differs from the offline render")
        #expect(left[..<1_000].allSatisfy { $0 == 0 } && left[1_000..<1_100].contains { $0 != 0 })
    }

    @Test func stopFadesOutAndEndsInSilence() throws {
        let path = scratchFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try AudioDriver(device: "file:\"\(path)\",raw", options: options(period: 128))
        let engine = RenderEngine()
        let graph = try nodes()
        engine.install(RenderProgram(nodes: graph, format: driver.renderFormat))
        let meter = VoiceMeter(values: graph[0].outputValues, output: SynthNode.Output.activeVoices.rawValue)
        try driver.start(engine: engine, voiceMeter: meter)
        #expect(driver.live.push(.noteOn(channel: 0, note: 69, velocity: 110)))
        try driver.waitUntil({ driver.counters.framesRendered >= 24_000 },
                             message: "the live driver rendered only \(driver.counters.framesRendered) of 24000 frames")
        // The voice meter publishes from the render thread a little after the frames: wait for it.
        try driver.waitUntil({ driver.counters.activeVoices == 1 },
                             message: "the note sounded no voice: activeVoices \(driver.counters.activeVoices)")
        #expect(driver.isRunning, "live playback runs until stopped")
        try driver.stopWithDeadline()
        #expect(!driver.isRunning)

        let played = try samples(at: path)
        let fadeSamples = Int(0.05 * 48_000) * 2
        let beforeFade = played[..<(played.count - fadeSamples - 2 * 128 * 2)]
        #expect(beforeFade.contains { abs($0) > 0.01 }, "the live note sounded")
        #expect(played.suffix(128 * 2).allSatisfy { $0 == 0 }, "the last block is silent")
        let fade = Array(played.suffix(fadeSamples + 2 * 128 * 2).prefix(fadeSamples))
        let quarter = fade.count / 4
        let firstPeak = fade[..<quarter].map(abs).max() ?? 0
        let lastPeak = fade[(3 * quarter)...].map(abs).max() ?? 0
        #expect(lastPeak < firstPeak * 0.5, "the level ramps down during the fade")
    }

    @Test func anUnknownDeviceIsAOneLineErrorThatNamesTheFix() {
        #expect {
            _ = try AudioDriver(device: "hw:9,0", options: options(period: 256))
        } throws: { error in
            guard case .unknownDevice(let name, _) = error as? PCMError else { return false }
            let text = "\(error)"
            return name == "hw:9,0" && text.contains("--device") && text.contains("midihub render") && !text.contains("\n")
        }
    }
}
