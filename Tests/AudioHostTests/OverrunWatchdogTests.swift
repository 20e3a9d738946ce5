@testable import AudioHost
import MIDICore
import Testing

/// The render thread leaves realtime priority only after a run of blocks that each took
/// longer to render than to play, once, and only when it had realtime priority.
@Suite("Overrun watchdog")
struct OverrunWatchdogTests {
    /// 480 frames at 48 kHz play for 10 ms.
    static let blockLength = HostDuration.milliseconds(10)
    static let slow = blockLength + HostDuration(nanoseconds: 1)
    static let inTime = blockLength - HostDuration(nanoseconds: 1)

    func armedWatchdog(limit: Int = 4) -> OverrunWatchdog {
        var watchdog = OverrunWatchdog(blockFrames: 480, sampleRate: 48_000, limit: limit)
        watchdog.arm()
        return watchdog
    }

    @Test func firesAtTheLimitOfOverrunsInARow() {
        var watchdog = armedWatchdog()
        let fired = (0..<4).map { _ in watchdog.record(rendering: Self.slow) }
        #expect(fired == [false, false, false, true])
        #expect(!watchdog.isArmed)
    }

    @Test func aBlockInTimeStartsTheCountAgain() {
        var watchdog = armedWatchdog()
        let pattern = [Self.slow, Self.slow, Self.slow, Self.inTime, Self.slow, Self.slow, Self.slow]
        let fired = pattern.map { watchdog.record(rendering: $0) }
        #expect(fired.allSatisfy { !$0 })
        let firedAtTheFourthInARow = watchdog.record(rendering: Self.slow)
        #expect(firedAtTheFourthInARow)
    }

    @Test func firesOnlyOnce() {
        var watchdog = armedWatchdog(limit: 2)
        let fired = (0..<10).map { _ in watchdog.record(rendering: Self.slow) }
        #expect(fired.filter { $0 }.count == 1)
    }

    @Test func neverFiresWithoutRealtimePriority() {
        var watchdog = OverrunWatchdog(blockFrames: 480, sampleRate: 48_000, limit: 2)
        let fired = (0..<10).map { _ in watchdog.record(rendering: Self.slow) }
        #expect(fired.allSatisfy { !$0 })
    }
}
