import Foundation

/// What the fidelity tier measures of one note in a stereo render (frames at `rate`):
/// level, attack and release times, spectral centroid and pitch, each the way a listener
/// compares two players (see docs/soundfont.md, "Fidelity against FluidSynth").
/// - Thread: any (plain values).
public struct NoteMeasures: Sendable {
    /// Mean power over the note (onset to the end of its window), in dB full scale.
    public var level: Double
    /// Seconds from the onset until the envelope (10 ms RMS) first reaches half its peak
    /// while held: the middle of the rise, which ripple and tremolo on a sustained sound
    /// do not move (the time to the peak itself does: a held organ's peak is anywhere).
    public var attack: Double
    /// The release's time constant: the power-weighted mean time after the note-off
    /// (Σ t·p(t) / Σ p(t) to the end of the window), which an exponential decay's ripple and
    /// beating do not move; nil when the note had died away before the note-off.
    public var release: Double?
    /// Spectral centroid of the held part, in Hz.
    public var centroid: Double
    /// The held part's period by autocorrelation, in frames; nil when the sound has no clear one.
    public var period: Double?

    public static let envelopeWindow = 480   // 10 ms at 48 kHz
    public static let envelopeHop = 48       // 1 ms
    public static let silenceLevel: Float = 1e-6

    /// Measures the note sounding in `left`/`right` from the first non-silent frame at or
    /// after `start`, held `held` frames, its window ending at `end`; nil when it is silent.
    public init?(left: [Float], right: [Float], start: Int, held: Int, end: Int, rate: Double) {
        guard let onset = (start..<end).first(where: { abs(left[$0]) > Self.silenceLevel || abs(right[$0]) > Self.silenceLevel })
        else { return nil }
        let mono = (onset..<end).map { 0.5 * Double(left[$0] + right[$0]) }
        var power = 0.0
        for frame in onset..<end {
            let l = Double(left[frame]), r = Double(right[frame])
            power += (l * l + r * r) / 2
        }
        level = 10 * log10(max(power / Double(end - onset), 1e-20))

        let envelope = Self.envelope(mono)
        let heldHops = max(1, min(envelope.count, held / Self.envelopeHop))
        let peak = envelope[0..<heldHops].max() ?? 0
        attack = Double((envelope[0..<heldHops].firstIndex { $0 >= 0.5 * peak } ?? 0) * Self.envelopeHop) / rate

        release = nil
        if held < mono.count, heldHops < envelope.count, envelope[heldHops] > peak * 1e-3 {
            var weighted = 0.0, total = 0.0
            for frame in held..<mono.count {
                let power = mono[frame] * mono[frame]
                weighted += Double(frame - held) * power
                total += power
            }
            release = weighted / total / rate
        }

        let heldPart = Array(mono[min(mono.count, Int(0.05 * rate))..<min(mono.count, held)])
        centroid = Spectrum.centroid(of: heldPart, rate: rate)
        period = Self.period(of: heldPart, rate: rate)
    }

    /// RMS over `envelopeWindow` frames from every `envelopeHop`th frame.
    public static func envelope(_ samples: [Double]) -> [Double] {
        stride(from: 0, to: samples.count - envelopeWindow + 1, by: envelopeHop).map { start in
            (samples[start..<start + envelopeWindow].reduce(0) { $0 + $1 * $1 } / Double(envelopeWindow)).squareRoot()
        }
    }

    /// The period in frames (30 Hz…2 kHz): the first lag where the normalized
    /// autocorrelation of a 100 ms stretch from the middle of `samples` is within 2 % of its
    /// best (the fundamental, not a multiple), then refined over all of `samples` at the
    /// largest multiple of it below 1/30 s, by a parabola through the correlation there: a
    /// precision of hundredths of a cent, and the average pitch of detuned layers rather than
    /// where their beating stands. Nil when the best correlation is below 0.9 (no clear pitch).
    public static func period(of samples: [Double], rate: Double) -> Double? {
        let length = Int(0.1 * rate), shortest = Int(rate / 2000), longest = Int(rate / 30)
        guard samples.count >= length + longest + 2 else { return nil }
        let middle = (samples.count - length - longest) / 2
        let values = (shortest - 1...longest + 1).map { correlation(samples, lag: $0, from: middle, count: length) }
        let best = values[1...values.count - 2].max() ?? 0
        guard best >= 0.9, let index = (1...values.count - 2).first(where: {
            values[$0] >= best - 0.02 && values[$0] >= values[$0 - 1] && values[$0] >= values[$0 + 1]
        }) else { return nil }
        let coarse = shortest - 1 + index
        let multiple = max(1, longest / coarse)
        let whole = samples.count - multiple * coarse - 8
        // The peak near `multiple` periods, over the whole stretch.
        var lag = multiple * coarse
        func wide(_ lag: Int) -> Double { correlation(samples, lag: lag, from: 0, count: whole) }
        while lag + 1 < samples.count - whole, wide(lag + 1) > wide(lag) { lag += 1 }
        while lag - 1 > 0, wide(lag - 1) > wide(lag) { lag -= 1 }
        let (a, b, c) = (wide(lag - 1), wide(lag), wide(lag + 1))
        let denominator = a - 2 * b + c
        let offset = denominator == 0 ? 0 : 0.5 * (a - c) / denominator
        return (Double(lag) + offset) / Double(multiple)
    }

    /// The normalized correlation of `count` frames from `start` with the same `lag` later.
    static func correlation(_ samples: [Double], lag: Int, from start: Int, count: Int) -> Double {
        var product = 0.0, energyA = 0.0, energyB = 0.0
        for index in start..<start + count {
            product += samples[index] * samples[index + lag]
            energyA += samples[index] * samples[index]
            energyB += samples[index + lag] * samples[index + lag]
        }
        return product / max((energyA * energyB).squareRoot(), 1e-30)
    }
}

/// A radix-2 FFT for the tests' spectra (Hann-windowed frames of 4096).
/// - Thread: any.
public enum Spectrum {
    public static let size = 4096

    /// The magnitude-weighted mean frequency of `samples`, averaged over frames hopping by half.
    public static func centroid(of samples: [Double], rate: Double) -> Double {
        guard samples.count >= size else { return 0 }
        var magnitudes = [Double](repeating: 0, count: size / 2)
        let window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        for start in stride(from: 0, through: samples.count - size, by: size / 2) {
            var real = (0..<size).map { samples[start + $0] * window[$0] }
            var imaginary = [Double](repeating: 0, count: size)
            transform(&real, &imaginary)
            for bin in 0..<size / 2 { magnitudes[bin] += (real[bin] * real[bin] + imaginary[bin] * imaginary[bin]).squareRoot() }
        }
        let total = magnitudes.reduce(0, +)
        guard total > 0 else { return 0 }
        let weighted = magnitudes.indices.reduce(0.0) { $0 + Double($1) * rate / Double(size) * magnitudes[$1] }
        return weighted / total
    }

    /// In-place iterative Cooley–Tukey transform; the count must be a power of two.
    public static func transform(_ real: inout [Double], _ imaginary: inout [Double]) {
        let count = real.count
        var j = 0
        for i in 1..<count {
            var bit = count >> 1
            while j & bit != 0 { j ^= bit; bit >>= 1 }
            j |= bit
            if i < j { real.swapAt(i, j); imaginary.swapAt(i, j) }
        }
        var length = 2
        while length <= count {
            let angle = -2 * Double.pi / Double(length)
            for start in stride(from: 0, to: count, by: length) {
                for k in 0..<length / 2 {
                    let (wr, wi) = (cos(angle * Double(k)), sin(angle * Double(k)))
                    let (a, b) = (start + k, start + k + length / 2)
                    let tr = real[b] * wr - imaginary[b] * wi, ti = real[b] * wi + imaginary[b] * wr
                    real[b] = real[a] - tr; imaginary[b] = imaginary[a] - ti
                    real[a] += tr; imaginary[a] += ti
                }
            }
            length <<= 1
        }
    }
}
