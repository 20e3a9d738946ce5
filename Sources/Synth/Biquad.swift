/// A second-order filter of one of the RBJ Audio-EQ-Cookbook's equalizer shapes, on both
/// channels of a stereo signal, in transposed direct form II.
///
/// Coefficients and state are doubles: a 20 Hz shelf at 48 kHz has its poles within a
/// fraction of a percent of z = 1, where the feedback lifts single-precision rounding to
/// noise only about 40 dB below the signal.
///
/// - Thread: render (owned by one effect).
struct Biquad {
    enum Shape: Equatable {
        /// Boosts or cuts below the frequency (slope 1: the steepest shelf without overshoot).
        case lowShelf
        /// Boosts or cuts above the frequency (slope 1).
        case highShelf
        /// Boosts or cuts a band around the frequency, `q` its sharpness.
        case peaking(q: Float)
    }

    private var b0 = 1.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
    private var state1 = SIMD2<Double>.zero, state2 = SIMD2<Double>.zero
    /// What the coefficients were designed for (`nil`: nothing yet, the filter passes the sound).
    private var shape: Shape?
    private var frequency: Float = 0
    private var gain: Float = 0

    /// Designs the filter as `shape` at `frequency` hertz with `gain` decibels (0: the sound
    /// passes unchanged), unless it is designed so already. The state is kept, so a gliding
    /// parameter reshapes the sound without a click.
    mutating func design(_ shape: Shape, frequency: Float, gain: Float, sampleRate: Float) {
        guard shape != self.shape || frequency != self.frequency || gain != self.gain else { return }
        (self.shape, self.frequency, self.gain) = (shape, frequency, gain)
        // sin ω and cos ω from tan(ω/2): accurate for the lowest frequencies, where 1 − cos ω is tiny.
        let t = Double(tanSmall(Float.pi * min(frequency, 0.45 * sampleRate) / sampleRate)), t2 = t * t
        let cosine = (1 - t2) / (1 + t2), sine = 2 * t / (1 + t2)
        // A = 10^(gain/40): the shelf's plateau and the peak's centre reach A², `gain` decibels.
        let a = Double(decibelsToGain(gain / 2))
        let b: (Double, Double, Double), d: (Double, Double, Double)
        switch shape {
        case .peaking(let q):
            let alpha = sine / (2 * Double(q))
            b = (1 + alpha * a, -2 * cosine, 1 - alpha * a)
            d = (1 + alpha / a, -2 * cosine, 1 - alpha / a)
        case .lowShelf, .highShelf:
            // The high shelf is the low shelf mirrored about a quarter of the sample rate
            // (z → −z): cos ω and the odd coefficients change sign. 2√A·α = √(2A)·sin ω at slope 1.
            let mirror: Double = shape == .highShelf ? -1 : 1
            let c = mirror * cosine, root = (2 * a).squareRoot() * sine
            b = (a * ((a + 1) - (a - 1) * c + root), mirror * 2 * a * ((a - 1) - (a + 1) * c),
                 a * ((a + 1) - (a - 1) * c - root))
            d = ((a + 1) + (a - 1) * c + root, mirror * -2 * ((a - 1) + (a + 1) * c), (a + 1) + (a - 1) * c - root)
        }
        (b0, b1, b2) = (b.0 / d.0, b.1 / d.0, b.2 / d.0)
        (a1, a2) = (d.1 / d.0, d.2 / d.0)
    }

    /// Filters one stereo frame.
    @inline(__always)
    mutating func process(_ x: SIMD2<Double>) -> SIMD2<Double> {
        let y = b0 * x + state1
        state1 = b1 * x - a1 * y + state2
        state2 = b2 * x - a2 * y
        return y
    }
}
