import Foundation
import MIDICore
import RenderCore
import Sequencer
import Testing
@testable import Synth

@Suite struct OfflineRenderTests {
    @Test func scheduleRoundsEventTimesToTheNearestFrame() {
        // 96 ticks per quarter at 120 BPM: one tick = 1/192 s = 250 frames at 48 kHz; at
        // 44.1 kHz 229.6875 frames, so tick 1 lands on round(229.6875) = 230.
        var track = MIDITrack(events: [
            TrackEvent(tick: 1, .midi(.noteOn(channel: 0, note: 60, velocity: 100))),
            TrackEvent(tick: 96, .meta(.tempo(microsecondsPerQuarter: 250_000))),
            TrackEvent(tick: 97, .midi(.noteOff(channel: 0, note: 60, velocity: 0))),
        ])
        track.endTick = 192
        let file = MIDIFile(format: 0, division: .ticksPerQuarter(96), tracks: [track])
        let at48k = RenderSchedule(file: file, sampleRate: 48_000)
        #expect(at48k.entries.map(\.frame) == [250, 24_000 + 125])
        #expect(at48k.endFrame == 36_000)
        let at44k = RenderSchedule(file: file, sampleRate: 44_100)
        #expect(at44k.entries.map(\.frame) == [230, 22_050 + 115])
        #expect(at48k.hostSync(atFrame: 24_000).tempo == 240)
    }

    @Test(arguments: WAVSampleFormat.allCases)
    func wavFilesHavePatchedHeadersAndAppearOnlyWhenFinished(format: WAVSampleFormat) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-wav-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("out.wav").path
        var writer = try WAVFileWriter(path: path, format: format, sampleRate: 44_100)
        let left: [Float] = [0, 0.5, -1, 2], right: [Float] = [1, -0.5, 0.25, -2]
        try writer.write(left: left, right: right, frames: 4)
        #expect(!FileManager.default.fileExists(atPath: path), "nothing under the final name while rendering")
        try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func u32(_ at: Int) -> UInt32 { bytes[at..<at + 4].reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        #expect(Array(bytes[0..<4]) == Array("RIFF".utf8) && Int(u32(4)) == bytes.count - 8)
        let dataBytes = 4 * 2 * format.bytesPerSample
        #expect(Int(u32(bytes.count - dataBytes - 4)) == dataBytes, "data chunk size patched")
        #expect(u32(24) == 44_100)
        let firstRight = bytes.count - dataBytes + format.bytesPerSample
        switch format {
        case .s16: #expect(bytes[firstRight] == 0xFF && bytes[firstRight + 1] == 0x7F)
        case .s24: #expect(Array(bytes[firstRight..<firstRight + 3]) == [0xFF, 0xFF, 0x7F])
        case .f32: #expect(Array(bytes[firstRight..<firstRight + 4]) == [0, 0, 0x80, 0x3F])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.wav"], "temporary file renamed")
    }

    @Test func unwritablePathsGiveAOneLineErrorWithAFix() {
        #expect {
            _ = try WAVFileWriter(path: "/nonexistent-folder/out.wav", format: .s16, sampleRate: 48_000)
        } throws: { error in
            let text = "\(error)"
            return text.contains("/nonexistent-folder/out.wav") && text.contains("(fix: ") && !text.contains("\n")
        }
    }

    @Test func aMIDIFileRendersWithTheRepositoryBank() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../patches/presets").standardized.path
        let bank = try PresetBankLoader.load(directory: folder)
        var events: [TrackEvent] = []
        for program in stride(from: 0, to: 128, by: 8) {
            let tick = Tick(UInt64(program) * 12)
            let channel = UInt8(program / 8 % 16)
            events.append(TrackEvent(tick: tick, .midi(.programChange(channel: channel, program: UInt8(program)))))
            events.append(TrackEvent(tick: tick, .midi(.noteOn(channel: channel, note: 60, velocity: 100))))
            events.append(TrackEvent(tick: tick + 90, .midi(.noteOff(channel: channel, note: 60, velocity: 0))))
        }
        events.sort { $0.tick < $1.tick }
        let file = MIDIFile(format: 0, division: .ticksPerQuarter(96), tracks: [MIDITrack(events: events)])
        let renderer = OfflineRenderer(schedule: RenderSchedule(file: file, sampleRate: 48_000),
                                       nodes: StandardGraph(bank: bank).nodes, tail: .fixed(seconds: 1))
        var sink = MemorySink()
        try renderer.render(into: &sink)
        #expect(sink.left.count == Int(renderer.maximumFrames.index))
        #expect(sink.left.allSatisfy(\.isFinite) && sink.left.contains { abs($0) > 0.01 })
        #expect(sink.left.allSatisfy { abs($0) < 1 }, "no clipping at the default gain")
    }

    /// One note of the repository bank's `program` through the standard graph (synth and
    /// reverb), released after `held` ticks (nil: never), in a file of 192 ticks (1 s).
    private func oneNote(program: UInt8 = 0, released held: Tick?,
                         tail: RenderTail) throws -> (samples: [Float], renderer: OfflineRenderer) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../patches/presets").standardized.path
        var events = [TrackEvent(tick: 0, .midi(.programChange(channel: 0, program: program))),
                      TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 100)))]
        if let held { events.append(TrackEvent(tick: held, .midi(.noteOff(channel: 0, note: 60, velocity: 0)))) }
        var track = MIDITrack(events: events)
        track.endTick = 192
        let file = MIDIFile(format: 0, division: .ticksPerQuarter(96), tracks: [track])
        let renderer = OfflineRenderer(schedule: RenderSchedule(file: file, sampleRate: 48_000),
                                       nodes: StandardGraph(bank: try PresetBankLoader.load(directory: folder)).nodes,
                                       tail: tail)
        var sink = MemorySink()
        try renderer.render(into: &sink)
        return (zip(sink.left, sink.right).map { max(abs($0), abs($1)) }, renderer)
    }

    @Test func theTailRingsOutUntilTheSoundDiesAway() throws {
        let silence = WAVSampleFormat.s16.silence
        let (samples, renderer) = try oneNote(released: 96, tail: .untilSilent(threshold: silence, maximum: 30))
        let end = Int(renderer.schedule.endFrame.index), window = Int(RenderTail.silentSeconds * 48_000)
        #expect(samples.count == Int(renderer.position.index))
        // The release and the reverb sound past the file's end, then fall silent for the last half second.
        let lastSound = try #require(samples.lastIndex { $0 >= silence })
        #expect(lastSound > end, "nothing sounded after the file's end")
        #expect(samples.count - 1 - lastSound >= window && samples.count - 1 - lastSound < window + 512,
                "\(samples.count - 1 - lastSound) silent frames at the end")
        #expect(samples.count < end + 30 * 48_000, "stopped by the maximum")
        #expect(renderer.isFinished)
    }

    @Test func aNoteNeverReleasedStopsAtTheLongestTail() throws {
        let (samples, renderer) = try oneNote(program: 16, released: nil,  // an organ: it sounds while held
                                              tail: .untilSilent(threshold: WAVSampleFormat.s16.silence, maximum: 3))
        #expect(samples.count == Int(renderer.schedule.endFrame.index) + 3 * 48_000)
        #expect(samples.suffix(4_800).contains { $0 > 0.01 }, "the held note still sounds at the end")
    }
}
