import ALSA
import AudioHost
import Foundation
import MIDICore
import RenderCore
import Sequencer
import Synth
import Testing
import TestSupport

/// `AudioRecorder` on a driver playing through alsa-lib's `file` plugin: what the tap takes
/// — the master output or one node's — reaches the WAV file.
@Suite("Audio recorder: the master output or one node's")
struct AudioRecorderTests {
    private let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-recorder-\(UUID().uuidString)")

    /// Two synths, ids 5 and 9; only 9 is routed to the output, and a note plays on 5: the
    /// sound card hears silence, the node's output has the note.
    private func startDriver() throws -> AudioDriver {
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let bank = try PresetBankLoader.load(directory: AudioDriverTests.bankFolder)
        let options = AudioDriverOptions(pcm: PCMConfiguration(periodFrames: 256, formats: [.float32LE]), realtimePriority: false)
        let driver = try AudioDriver(device: "file:\"\(scratch.appendingPathComponent("card.raw").path)\",raw", options: options)
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [SynthNode(bank: bank), SynthNode(bank: bank)], ids: [5, 9],
                                     wiring: AudioWiring(inputs: [[], []], toOutput: [1]), format: driver.renderFormat))
        try driver.start(engine: engine)
        #expect(driver.live.push(.noteOn(channel: 0, note: 69, velocity: 110), node: 5))
        return driver
    }

    /// Records about 0.2 s from `source` into a WAV; its 16-bit samples, interleaved.
    private func record(_ source: AudioTap.Source, from driver: AudioDriver, name: String) throws -> [Int16] {
        let path = scratch.appendingPathComponent(name).path
        driver.tap.source = source
        let recorder = try AudioRecorder(driver: driver, path: path)
        let start = driver.counters.framesRendered
        try driver.waitUntil({ driver.counters.framesRendered >= start + 9_600 },
                             message: "the driver rendered only \(driver.counters.framesRendered - start) frames")
        let summary = try recorder.stop()
        #expect(summary.seconds > 0.1)
        return try Self.samples(ofWAV: path)
    }

    /// The samples of a 16-bit PCM WAV file's `data` chunk.
    private static func samples(ofWAV path: String) throws -> [Int16] {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let data = try #require((12..<bytes.count - 8).first { Array(bytes[$0..<$0 + 4]) == Array("data".utf8) },
                                "no data chunk in \(path)") + 8
        return stride(from: data, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
    }

    @Test func aNodesOutputIsRecordedWhereTheMasterIsSilent() throws {
        defer { try? FileManager.default.removeItem(at: scratch) }
        let driver = try startDriver()
        defer { try? driver.stopWithDeadline() }
        let node = try record(.node(5), from: driver, name: "node.wav")
        let master = try record(.master, from: driver, name: "master.wav")
        let unrouted = try record(.node(9), from: driver, name: "quiet.wav")
        let gone = try record(.node(7), from: driver, name: "gone.wav")
        #expect(node.contains { abs(Int($0)) > 300 }, "the note on node 5 is in its recording")
        #expect(master.allSatisfy { $0 == 0 }, "the master output plays nothing: node 5 is not routed to it")
        #expect(unrouted.allSatisfy { $0 == 0 }, "node 9 plays no note")
        #expect(gone.count > 9_000 && gone.allSatisfy { $0 == 0 }, "a node the program lacks records silence, and keeps the length")
    }
}
