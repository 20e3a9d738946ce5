import ALSA
import AudioHost
import Foundation
import RenderCore
import Testing
import TestSupport

/// Remembers the host sync of the last block it rendered (read after the driver stopped).
private final class HostProbe: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .generator, subtype: "host", manufacturer: "test", name: "host probe", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    var last: HostSync?

    func prepare(format: RenderFormat) { preparedFormat = format }
    func process(_ context: ProcessContext) { last = context.host }
}

@Suite struct LiveTempoTests {
    @Test func liveHostSyncReportsTheDriversTempoAndAdvancesBeats() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-tempo-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try AudioDriver(device: "file:\"\(path)\",raw",
                                     options: AudioDriverOptions(pcm: PCMConfiguration(periodFrames: 256, formats: [.float32LE]),
                                                                 realtimePriority: false))
        #expect(driver.tempo == 120)
        driver.tempo = 90
        let probe = HostProbe()
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [probe], format: driver.renderFormat))
        try driver.start(engine: engine)
        try driver.waitUntil({ driver.counters.framesRendered >= 48_000 },
                             message: "the live driver rendered only \(driver.counters.framesRendered) of 48000 frames")
        try driver.stopWithDeadline()
        let host = try #require(probe.last)
        #expect(host.tempo == 90)
        // 90 BPM is 1.5 beats per second: the beat position follows the frames rendered.
        let expectedBeat = Double(host.samplePosition) / host.sampleRate * 1.5
        #expect(abs(host.beat - expectedBeat) < 1e-6)
        #expect(host.beat > 1.4)
    }
}
