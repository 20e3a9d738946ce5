import AudioHost
import Foundation
import RenderCore
import Synchronization
import Testing
import TestSupport

/// A second sound card's writer: a device that cannot be opened is one line, with the fix,
/// however many times it is tried again; one that opens is played what the node is handed.
/// (The clock following itself: `DriftFollowerTests`.)
@Suite(.serialized) struct AudioOutputFeedTests {
    static let format = RenderFormat(sampleRate: 48_000, maxFrames: 256)

    @Test func anOutputThatCannotOpenSaysSoOnceWhileItIsTriedAgain() throws {
        let reports = Mutex<[String]>([])
        let feed = AudioOutputFeed(device: "hw:97,0", format: Self.format) { line in reports.withLock { $0.append(line) } }
        defer { feed.stop() }
        try waitUntil({ !reports.withLock { $0 }.isEmpty }, message: "the failing device was never reported")
        Thread.sleep(forTimeInterval: 2.3)  // two more tries, a second apart
        let lines = reports.withLock { $0 }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("audio output: no playback device 'hw:97,0'") == true, "\(lines)")
        #expect(lines.first?.contains("`aplay -L`") == true, "the line names the fix: \(lines)")
    }

    @Test func whatTheNodeIsHandedIsPlayedToTheDevice() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-feed-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let feed = AudioOutputFeed(device: "file:\"\(path)\",raw", format: Self.format) { _ in }
        let buffer = AudioBuffer(channels: 2, capacity: 256)
        // A steady half-scale tone on the left, silence on the right, handed over block by block
        // (as the render thread does) until the writer has played a second of it.
        try waitUntil({
            for i in 0..<256 { buffer.bus.left[i] = 0.5; buffer.bus.right[i] = 0 }
            feed.node.process(ProcessContext(frames: 256, events: UnsafeBufferPointer(start: nil, count: 0),
                                             bus: buffer.bus, host: HostSync()))
            usleep(1_000)
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return size >= 48_000 * 2 * 4
        }, message: "the writer played less than a second")
        feed.stop()
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        let left = stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
        let right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        #expect(right.allSatisfy { $0 == 0 })
        #expect(left.filter { $0 == 0.5 }.count > left.count / 2, "mostly the tone (silence only while starved)")
        // The writer reads between frames (DriftFollower): the tone stays the tone exactly,
        // and where the ring ran dry (this writer is not paced by a clock) it rings down to
        // silence over a few frames, a cubic's small overshoot at most.
        #expect(left.allSatisfy { $0 > -0.1 && $0 < 0.6 }, "the tone, silence, or the few frames between")
        #expect(left.filter { $0 != 0.5 && $0 != 0 }.count < left.count / 20, "few frames between the tone and silence")
    }
}
