@testable import AudioHost
import Foundation
import Testing

/// A second card's writer following the main card's clock: a producer on the main clock
/// hands 256-frame blocks (as the render thread does, a block a period of the main card)
/// while the writer plays 256-frame periods on its own clock, the two apart by a real card's drift. Two minutes of it,
/// simulated period by period.
@Suite struct DriftFollowerTests {
    static let period = 256, block = 256, rate = 48_000

    struct Run {
        /// The frames in the ring before each period once settled (after 40 s), least and most.
        var settledFill = (least: Int.max, most: Int.min)
        /// Input frames the ring did not have when read, after the start.
        var missing = 0
        /// The reading rate once settled: its mean, least and most.
        var ratio = (mean: 0.0, least: Double.infinity, most: -Double.infinity)
        /// The left channel the writer played after 40 s.
        var settledOutput: [Float] = []
    }

    /// Up to half a millisecond, evenly, from a fixed seed.
    struct Lateness {
        private var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        mutating func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53) * 0.000_5
        }
    }

    /// Plays `seconds` of `signal` (by the producer's frame number) with the producer's
    /// clock `drift` (e.g. 300e-6: 300 ppm fast) against the writer's.
    static func simulate(drift: Double, seconds: Double = 120, signal: (Int) -> Float) -> Run {
        var ring: [StereoFrame] = [], head = 0, producedBlocks = 0
        var follower = DriftFollower(period: period, sampleRate: rate)
        var run = Run(), started = false
        let periods = Int(seconds * Double(rate)) / period, settled = 40 * rate / period
        var samples = [Float](repeating: 0, count: 2 * period)
        var lateness = Lateness()
        for index in 0..<periods {
            // Blocks the producer has handed over by the start of this period, on its clock,
            // and how long ago (on the writer's) it handed over the last.
            let now = Double(index * period) / Double(rate)
            let due = Int(now * Double(rate) * (1 + drift)) / block
            while producedBlocks < due {
                for frame in 0..<block {
                    let value = signal(producedBlocks * block + frame)
                    ring.append(StereoFrame(left: value, right: -value))
                }
                producedBlocks += 1
            }
            // Each thread wakes up to half a millisecond late, as a loaded machine has it.
            let handedOver = Double(producedBlocks * block) / (Double(rate) * (1 + drift)) + lateness.next()
            let fill = ring.count - head
            let steeringFill = DriftFollower.fill(waiting: fill, secondsSinceHandover: now + lateness.next() - handedOver,
                                                  block: block, sampleRate: rate)
            if !started {
                guard fill >= Int(follower.target) + block else { continue }
                started = true
                follower.restart()
            }
            if index >= settled { run.settledFill = (min(run.settledFill.least, fill), max(run.settledFill.most, fill)) }
            follower.observe(fill: steeringFill)
            run.missing += samples.withUnsafeMutableBufferPointer { out in
                follower.render(into: out.baseAddress!, frames: period, channels: 2) {
                    guard head < ring.count else { return nil }
                    head += 1
                    return ring[head - 1]
                }
            }
            if index >= settled {
                run.settledOutput += stride(from: 0, to: 2 * period, by: 2).map { samples[$0] }
                run.ratio = (run.ratio.mean + follower.ratio, min(run.ratio.least, follower.ratio), max(run.ratio.most, follower.ratio))
            }
        }
        run.ratio.mean /= Double(periods - settled)
        return run
    }

    @Test(arguments: [0, 300e-6, -300e-6, 2_000e-6])
    func theRingStaysNearItsTargetWhateverTheDrift(drift: Double) {
        let run = Self.simulate(drift: drift) { _ in 0.25 }
        // Without following, 300 ppm is 1728 frames in two minutes: the ring would run dry
        // or pile up by seven periods.
        #expect(run.missing == 0, "the ring ran dry \(run.missing) frames")
        #expect(run.settledFill.least >= Self.period && run.settledFill.most <= 4 * Self.period,
                "settled fill \(run.settledFill) (two to three periods when settled)")
        // The reading rate is the clocks' ratio, within 20 ppm on average, and wobbles by less
        // than a fifth of a cent (116 ppm) as blocks and periods slide past each other and
        // the threads wake late. (Steered by the bare count, it swung by 3000 ppm: 5 cents.)
        #expect(abs(run.ratio.mean - (1 + drift)) < 20e-6, "rate \(run.ratio) for a drift of \(drift)")
        #expect(run.ratio.most - run.ratio.least < 116e-6, "rate \(run.ratio) for a drift of \(drift)")
    }

    @Test(arguments: [300e-6, -300e-6])
    func aToneComesOutWholeWithNoJumpOrGap(drift: Double) {
        let hertz = 1_000.0
        let run = Self.simulate(drift: drift) { frame in Float(0.5 * sin(2 * Double.pi * hertz * Double(frame) / Double(Self.rate))) }
        // A sine obeys y[n+1] + y[n-1] = 2 cos(w) y[n]; a dropped or repeated frame breaks
        // it by about 0.06 at this pitch, a gap by up to 0.5. The writer plays the tone at the
        // producer's pitch on its own clock: w from the rate it reads at.
        let twoCos = Float(2 * cos(2 * Double.pi * hertz * run.ratio.mean / Double(Self.rate)))
        let y = run.settledOutput
        #expect(y.count > 60 * Self.rate)
        var worst: Float = 0, loudest: Float = 0
        for n in 1..<(y.count - 1) {
            let residual: Float = y[n + 1] + y[n - 1] - twoCos * y[n]
            worst = max(worst, abs(residual))
            loudest = max(loudest, abs(y[n]))
        }
        #expect(worst < 2e-3, "the tone breaks by \(worst)")
        #expect(loudest > 0.49, "the tone sounds at its level")
    }
}
