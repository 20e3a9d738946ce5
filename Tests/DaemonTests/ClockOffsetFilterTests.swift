@testable import Daemon
import MIDICore
import TestSupport
import Testing

/// The offset between the transport's clock and the ALSA queue, steadied over noisy readings.
@Suite struct ClockOffsetFilterTests {
    @Test func noisyReadingsSettleNearTheTrueOffsetAndFollowDrift() {
        var filter = ClockOffsetFilter()
        var generator = SeededGenerator(seed: 42)
        let offset = 12.345
        var worst = 0.0
        for step in 0..<2000 {
            let drift = Double(step) * 1e-7  // 10 µs per second at 100 readings a second
            let steadied = filter.add(HostDuration(seconds: offset + drift + Double.random(in: -0.003...0.003, using: &generator)))
            if step >= 100 { worst = max(worst, abs(steadied.seconds - offset - drift)) }
        }
        #expect(worst < 0.001, "readings off by up to 3 ms gave an offset off by \(worst * 1000) ms")
    }

    @Test func aJumpStartsOver() {
        var filter = ClockOffsetFilter()
        _ = filter.add(1.0)
        _ = filter.add(1.002)
        #expect(filter.add(5.0) == 5.0)  // a clock started over: no average across it
        #expect((filter.add(5.002) - 5.001).magnitude <= HostDuration(nanoseconds: 1), "to the nanosecond")
    }
}

