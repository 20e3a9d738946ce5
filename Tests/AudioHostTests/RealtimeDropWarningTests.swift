import ALSA
import AudioHost
import Foundation
import RenderCore
import Testing
import TestSupport

/// A render thread slower than playback leaves realtime priority and says so in the one
/// line docs/live.md shows ("The render thread"), with the real driver and watchdog.
@Suite struct RealtimeDropWarningTests {
    /// An instrument that takes 30 ms per block: slower than the 21 ms 1024 frames play.
    final class SlowNode: Node, @unchecked Sendable {
        let descriptor = NodeDescriptor(kind: .instrument, subtype: "slow", manufacturer: "test", name: "slow", version: 1)
        let parameters: [ParameterInfo] = []
        let outputs: [OutputInfo] = []
        let outputValues = OutputValues()
        private(set) var preparedFormat: RenderFormat?

        func prepare(format: RenderFormat) { preparedFormat = format }
        func process(_ context: ProcessContext) { usleep(30_000) }
    }

    @Test func aSlowRenderThreadDropsRealtimePriorityWithOneLine() throws {
        let options = AudioDriverOptions(pcm: PCMConfiguration(periodFrames: 1024))
        let driver = try AudioDriver(device: "null", options: options)
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [SlowNode()], format: driver.renderFormat))
        let priority = try driver.start(engine: engine)
        guard case .granted? = priority else {
            try driver.stopWithDeadline()
            Issue.record("the render thread got no realtime priority (\(String(describing: priority))): nothing to drop; run as a user with rtprio")
            return
        }
        try driver.waitUntil({ driver.realtimeDropped }, message: "the slow render thread kept realtime priority")
        try driver.stopWithDeadline()
        #expect(driver.realtimeDroppedWarning == "audio: rendering is slower than playback (16 blocks of 1024 frames in a row), dropped realtime priority so the rest of the system keeps running (fix: a larger --period, fewer voices or effects, or a release build)")
    }
}
