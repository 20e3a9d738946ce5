import MIDICore
import Testing

/// Host time in whole nanoseconds, and the one conversion to frames.
@Suite struct HostTimeTests {
    @Test func literalsAreSecondsAndArithmeticIsExactNanoseconds() {
        let start: HostTime = 1.5
        #expect(start.nanoseconds == 1_500_000_000)
        let step: HostDuration = 0.000_000_001
        #expect(step.nanoseconds == 1)
        // A tenth of a second added ten times is a second exactly (in Double seconds it is not).
        var time = HostTime.zero
        for _ in 0..<10 { time += 0.1 }
        #expect(time == 1)
        #expect(time - start == -0.5)
        #expect((start - time).seconds == 0.5)
        #expect(HostDuration.milliseconds(3) == HostDuration.microseconds(3_000))
        #expect(HostDuration(seconds: -0.25).magnitude == 0.25)
    }

    @Test func absurdSecondsClampInsteadOfTrapping() {
        #expect(HostDuration(seconds: .infinity).nanoseconds == .max)
        #expect(HostDuration(seconds: -.infinity).nanoseconds == .min)
        #expect(HostDuration(seconds: .nan) == .zero)
        #expect(HostTime.distantPast < HostTime.now() && HostTime.now() < HostTime.distantFuture)
        #expect((HostTime.distantFuture - HostTime.distantPast).nanoseconds > 0, "their span still fits")
        // Centuries (a song whose delta times add up that far) stop at the limit, in order.
        let centuries = HostDuration(seconds: 1e12)
        #expect(HostTime.zero + centuries + centuries == HostTime(nanoseconds: .max))
        #expect(HostTime.zero - centuries - centuries == HostTime(nanoseconds: .min))
        #expect(HostTime(nanoseconds: .max) - HostTime(nanoseconds: -1) == HostDuration(nanoseconds: .max))
        #expect(centuries * 1_000_000 == HostDuration(nanoseconds: .max))
        #expect(-HostDuration(nanoseconds: .min) == HostDuration(nanoseconds: .max))
    }

    @Test func theMonotonicClockNeverGoesBack() {
        var last = HostTime.now()
        for _ in 0..<1000 {
            let now = HostTime.now()
            #expect(now >= last)
            last = now
        }
    }

    /// Ten days after boot, an arrival 1 ns before a frame's start is still in the frame before:
    /// `Double` seconds hold that moment only to about 0.1 µs.
    @Test func framesFromNanosecondsAreExactHoweverLongTheMachineHasRun() {
        let base = TimeBase(sampleRate: 48_000)
        let tenDays = HostDuration(nanoseconds: 10 * 86_400 * 1_000_000_000)
        let frames = base.frames(in: tenDays)
        #expect(frames == 10 * 86_400 * 48_000)
        #expect(base.frames(in: tenDays - HostDuration(nanoseconds: 1)) == frames - 1)
        #expect(base.duration(ofFrames: frames) == tenDays)
        #expect(base.frames(in: HostDuration(nanoseconds: 20_833)) == 0, "just under one frame of 20,833.3 ns")
        #expect(base.frames(in: HostDuration(nanoseconds: 20_834)) == 1)
        #expect(base.nearestFrame(after: HostDuration(nanoseconds: 10_416)) == 0)
        #expect(base.nearestFrame(after: HostDuration(nanoseconds: 10_417)) == 1, "past half a frame rounds up")
        #expect(TimeBase(sampleRate: 44_100).duration(ofFrames: 44_100) == 1)
        #expect(base.duration(at: FramePosition(frames)) == tenDays)
    }

    /// A position becomes an offset in its block in one place: a late one sounds at the
    /// block's first frame, never before it.
    @Test func aFramePositionsOffsetInItsBlock() {
        let block: FramePosition = 48_000
        #expect((block + 17).offset(inBlockAt: block) == 17)
        #expect(FramePosition(47_990).offset(inBlockAt: block) == 0, "an event due before its block")
        #expect((block + 64) - block == 64)
        #expect(block - (block + 64) == -64)
        var position = FramePosition.zero
        position += 256
        #expect(position == 256 && position < block)
    }

    @Test func aQueueTimeMeetsTheMonotonicClockOnlyThroughTheOffsetMeasuredBetweenThem() {
        // Read together: the queue (started 2 s ago) at 2 s, the monotonic clock at 100 s.
        let ahead = QueueTime(sinceOrigin: 2).ahead(of: HostTime(seconds: 100))
        #expect(ahead == HostDuration(seconds: -98))
        #expect(QueueTime(HostTime(seconds: 100.5), ahead: ahead) == QueueTime(sinceOrigin: 2.5))
        #expect(QueueTime(sinceOrigin: 2.5).monotonic(ahead: ahead) == HostTime(seconds: 100.5))
        #expect(QueueTime(sinceOrigin: 2.5) - QueueTime(sinceOrigin: 2) == 0.5)
    }
}
