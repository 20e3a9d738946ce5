import RenderCore

/// How a second card plays a ring that the main card's clock fills at its own clock's
/// pace, when the two clocks differ (by up to a few hundred ppm between cards): it reads
/// the ring a little faster or slower than one frame a frame, interpolating between frames
/// (Catmull-Rom), and steers that rate so the ring stays near `target` frames — a PI loop
/// on the ring's fill, smoothed over a quarter second, settling in about ten seconds. The
/// ring then neither piles up (frames dropped: a jump) nor runs dry (a gap); the steering
/// moves the pitch by a few cents at most, and by a fraction of a cent once settled.
///
/// - Thread: any (a plain value the feed's writer thread holds).
struct DriftFollower {
    /// The fill (`fill(waiting:…)`) the loop holds: two of the writer's periods, so the ring
    /// holds two to three periods as the render thread's blocks arrive, never short of one.
    let target: Double
    /// Input frames read per output frame: 1 + the clocks' difference once settled.
    private(set) var ratio: Double = 1
    /// The farthest the rate goes from 1 (±0.5 %: 8.6 cents).
    static let reach = 0.005

    private let smoothing: Double
    private let proportional: Double, integral: Double
    private let period: Double
    private var smoothedFill: Double
    private var steering: Double = 0
    /// The four frames around the read position (before, at, after, after next) and where
    /// between `at` and `after` it lies.
    private var window = (StereoFrame.silence, StereoFrame.silence, StereoFrame.silence, StereoFrame.silence)
    private var fraction: Double = 0

    /// For periods of `period` frames at `sampleRate`.
    init(period: Int, sampleRate: Int) {
        self.period = Double(period)
        target = 2 * Double(period)
        smoothedFill = target
        let periodSeconds = Double(period) / Double(sampleRate)
        smoothing = min(1, periodSeconds / 0.25)
        // The loop as a second-order system in periods: natural frequency 0.4 rad/s,
        // damping 0.8 (no overshoot to speak of), both scaled to one period's time.
        let omega = 0.4 * periodSeconds
        proportional = 2 * 0.8 * omega
        integral = omega * omega
    }

    /// Takes the ring's fill before a period is read (`fill(waiting:…)`) and sets the rate for it.
    mutating func observe(fill: Double) {
        smoothedFill += smoothing * (fill - smoothedFill)
        let error = (smoothedFill - target) / period
        steering = min(max(steering + integral * error, -Self.reach), Self.reach)
        ratio = 1 + min(max(proportional * error + steering, -Self.reach), Self.reach)
    }

    /// The fill the loop steers by: `waiting` frames in the ring, less the part of the last
    /// `block` the render thread has not yet played when it is `secondsSinceHandover` after
    /// it handed that block over (as if it handed frames over one by one, as it plays them).
    static func fill(waiting: Int, secondsSinceHandover: Double, block: Int, sampleRate: Int) -> Double {
        Double(waiting - block) + min(secondsSinceHandover * Double(sampleRate), Double(block))
    }

    /// Starts again from an empty ring (the writer waits for three periods first): the
    /// window is silence, the steering learned so far is kept.
    mutating func restart() {
        window = (.silence, .silence, .silence, .silence)
        fraction = 0
        smoothedFill = target
    }

    /// Writes `frames` frames, interleaved in `channels` (1 or 2), to `samples`, reading
    /// the input from `next` at `ratio`.
    /// - Returns: how many input frames `next` did not have (read as silence).
    mutating func render(into samples: UnsafeMutablePointer<Float>, frames: Int, channels: Int,
                         next: () -> StereoFrame?) -> Int {
        var missing = 0
        for frame in 0..<frames {
            let x = Float(fraction)
            samples[frame * channels] = SampleMath.catmullRom(window.0.left, window.1.left, window.2.left, window.3.left, at: x)
            if channels > 1 {
                samples[frame * channels + 1] = SampleMath.catmullRom(window.0.right, window.1.right, window.2.right, window.3.right, at: x)
            }
            fraction += ratio
            while fraction >= 1 {
                fraction -= 1
                let input = next()
                if input == nil { missing += 1 }
                window = (window.1, window.2, window.3, input ?? .silence)
            }
        }
        return missing
    }
}

extension StereoFrame {
    static let silence = StereoFrame(left: 0, right: 0)
}
