import ALSA
import AudioHost
import Foundation
import RenderCore
import Sequencer
import Synth
import Testing
import TestSupport

/// The `swift` block of docs/live.md, line for line (DocsTests/SwiftSnippetTests checks
/// it), with the real synth: its `device` is alsa-lib's `file` plugin (no sound card
/// needed) and the A4 it pushes as live input must be in what was played.
@Suite struct LiveDocExampleTests {
    @Test func liveDocExamplePlaysALiveNote() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-live-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let device = "file:\"\(path)\",raw"
        let bank = try PresetBankLoader.load(directory: AudioDriverTests.bankFolder)

        let driver = try AudioDriver(device: device, options: AudioDriverOptions())   // "default", "plughw:1,0", …
        let engine = RenderEngine()
        engine.install(StandardGraph(bank: bank).program(format: driver.renderFormat))
        if case .denied(let warning) = try driver.start(engine: engine) { print(warning) }
        // `null` under the file plugin takes blocks as fast as they come: count from the push.
        let pushedAt = driver.counters.framesRendered
        driver.live.push(.noteOn(channel: 0, note: 69, velocity: 100))   // MIDI input thread
        // …
        try driver.waitUntil({ driver.counters.framesRendered >= pushedAt + 48_000 },
                             message: "the driver rendered only \(driver.counters.framesRendered - pushedAt) of 48000 frames")
        try driver.stop()

        #expect(driver.settings.format == .float32LE)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let played = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let left = stride(from: 0, to: played.count, by: 2).map { played[$0] }
        #expect(left.contains { abs($0) > 0.01 }, "the live note did not sound: \(played.count) samples, peak \(played.map(abs).max() ?? 0)")
        // A4: the sound repeats every 48000 / 440 ≈ 109 frames (the strongest autocorrelation
        // between half and double that period, over 0.1 s after the attack).
        let sounding = Array(left.drop { abs($0) < 0.001 }.dropFirst(2_400).prefix(4_800))
        let period = (55...218).max { lag1, lag2 in
            Self.correlation(sounding, lag1) < Self.correlation(sounding, lag2)
        }
        #expect(sounding.count == 4_800 && (107...111).contains(period ?? 0), "period \(period ?? 0) frames: not an A4")
    }

    static func correlation(_ samples: [Float], _ lag: Int) -> Float {
        zip(samples, samples.dropFirst(lag)).reduce(0) { $0 + $1.0 * $1.1 }
    }
}
