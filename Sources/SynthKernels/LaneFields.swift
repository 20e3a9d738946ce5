/// The per-lane values of a voice group (`Synth.VoiceGroup`), one vector per field, in
/// scratch memory: voices write their lane with scalar stores, the sample loop
/// (`LaneFields.run`) reads whole vectors. Idle lanes stay at zero (zero signal, level and
/// gains), so they add nothing.
public enum LaneField: Int {
    case b11, b12, b21, b22, d1, d2, e0, e1, e2, s1, s2
    case gainLeft, gainRight, stepLeft, stepRight, level, mul, add
    /// What each voice asks of its filter for the period (hertz, 0…1, and how much of the
    /// low-, band- and high-pass outputs): the group's filters (`b11`…`e2`) are designed
    /// from them in vectors. Each voice stores its own lane in memory, so nothing reloads
    /// a whole vector after each lane's store.
    case cutoff, resonance, low, band, high

    /// Fields of a voice group.
    @inlinable public static var count: Int { LaneField.high.rawValue + 1 }
}

/// A voice group's fields (`LaneField`) at `base`, and the group's per-sample loop.
///
/// - Thread: render.
public struct LaneFields {
    public typealias Lanes = SIMD8<Float>
    public let base: UnsafeMutablePointer<Lanes>

    @inlinable @inline(__always) public init(base: UnsafeMutablePointer<Lanes>) { self.base = base }

    @inlinable @inline(__always) public func clear() { base.update(repeating: .zero, count: LaneField.count) }

    @inlinable @inline(__always) public func set(_ field: LaneField, _ lane: Int, _ value: Float) {
        UnsafeMutableRawPointer(base + field.rawValue).storeBytes(of: value, toByteOffset: lane * 4, as: Float.self)
    }

    @inlinable @inline(__always) public func get(_ field: LaneField, _ lane: Int) -> Float {
        UnsafeRawPointer(base + field.rawValue).load(fromByteOffset: lane * 4, as: Float.self)
    }

    @inlinable @inline(__always) public subscript(_ field: LaneField) -> Lanes {
        get { base[field.rawValue] }
        nonmutating set { base[field.rawValue] = newValue }
    }

    /// Filter (`Synth.FilterCoefficients`), envelope and pan ramp for the frames in `range`
    /// of the voices whose signals are the columns of `signal` (one every `columnStride`
    /// floats), added into the lane accumulators `mixLeft`/`mixRight`; leaves the fields'
    /// state where the last frame left it. Inlinable so that two builds of it exist: the
    /// baseline one, inlined into `Synth`, and the one compiled for AVX2
    /// (`VoiceLanesAVX2.LaneFieldsAVX2`), its eight lanes in one register.
    @inlinable @inline(__always)
    public func run(signal: UnsafeMutablePointer<Float>, columnStride: Int, range: Range<Int>,
                    mixLeft: UnsafeMutablePointer<Lanes>, mixRight: UnsafeMutablePointer<Lanes>) {
        let c0 = signal, c1 = c0 + columnStride, c2 = c1 + columnStride, c3 = c2 + columnStride
        let c4 = c3 + columnStride, c5 = c4 + columnStride, c6 = c5 + columnStride, c7 = c6 + columnStride
        let b11 = self[.b11], b12 = self[.b12], b21 = self[.b21], b22 = self[.b22], d1 = self[.d1], d2 = self[.d2]
        let e0 = self[.e0], e1 = self[.e1], e2 = self[.e2]
        let mul = self[.mul], add = self[.add], stepLeft = self[.stepLeft], stepRight = self[.stepRight]
        var s1 = self[.s1], s2 = self[.s2], level = self[.level], gainLeft = self[.gainLeft], gainRight = self[.gainRight]
        for i in range {
            let x = Lanes(c0[i], c1[i], c2[i], c3[i], c4[i], c5[i], c6[i], c7[i])
            let y = e0 * x + e1 * s1 + e2 * s2
            (s1, s2) = (b11 * s1 + (b12 * s2 + d1 * x), b22 * s2 + (b21 * s1 + d2 * x))
            level = level * mul + add
            gainLeft += stepLeft
            gainRight += stepRight
            let out = y * level
            mixLeft[i] += out * gainLeft
            mixRight[i] += out * gainRight
        }
        self[.s1] = s1; self[.s2] = s2; self[.level] = level
        self[.gainLeft] = gainLeft; self[.gainRight] = gainRight
    }
}
