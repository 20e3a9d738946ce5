/// How `RenderEngine` blends a newly installed program in while audio runs.
///
/// - Thread: any (a plain value).
public struct Crossfade: Sendable, Equatable {
    public enum Curve: Sendable, Equatable {
        /// Gains `t` and `1 − t`.
        case linear
        /// Gains `sin(t·π/2)` and `cos(t·π/2)`: constant power for unrelated signals.
        case equalPower
    }

    /// Length of the blend; 0 swaps at a block boundary with no blend.
    public var seconds: Double
    public var curve: Curve

    public init(seconds: Double = 0.015, curve: Curve = .equalPower) {
        self.seconds = max(0, seconds)
        self.curve = curve
    }

    /// No blend: a new program replaces the old one at the next block.
    public static let off = Crossfade(seconds: 0)

    /// The blend's length in frames at `sampleRate`.
    /// - Thread: any.
    public func frames(sampleRate: Double) -> Int {
        Int((seconds * sampleRate).rounded())
    }

    /// The fade-in gain at each of `frames + 1` points from 0 to 1 (the fade-out is the
    /// same table read backwards).
    /// - Thread: control (allocates).
    func fadeInTable(frames: Int) -> [Float] {
        (0...frames).map { step in
            let t = frames == 0 ? 1 : Float(step) / Float(frames)
            return curve == .linear ? t : Self.quarterSine(t)
        }
    }

    /// `sin(t·π/2)` for `t` in 0…1 (a Taylor series, no libm in RenderCore), within 1e-6.
    static func quarterSine(_ t: Float) -> Float {
        let x = Double(t) * Double.pi / 2
        var term = x, sum = x
        for n in stride(from: 2, through: 16, by: 2) {
            term *= -x * x / Double(n * (n + 1))
            sum += term
        }
        return Float(min(1, max(0, sum)))
    }
}
