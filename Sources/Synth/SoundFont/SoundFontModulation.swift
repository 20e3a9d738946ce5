import Glibc
import SoundFont

/// One modulator, decoded from its SF2.01 record (section 8.2): a source, an amount
/// source, a generator it adds to, and an amount.
///
/// - Thread: any (a plain value; `value(_:)` is render-safe).
struct Modulation: Hashable {
    var source: UInt16
    var amountSource: UInt16
    var destination: Int
    var amount: Float
    /// Transform 2: the absolute value of the product.
    var absolute: Bool

    /// Whether two modulators are "identical" (SF2.01 section 9.5.1): same sources and
    /// destination. An identical one at the instrument level replaces, at the preset level adds.
    func isIdentical(to other: Modulation) -> Bool {
        source == other.source && amountSource == other.amountSource && destination == other.destination
    }

    /// The contribution to generator `destination` for the given controller inputs.
    @inline(__always)
    func value(_ inputs: ModulationInputs) -> Float {
        let product = amount * Self.map(source, inputs) * Self.map(amountSource, inputs)
        return absolute ? abs(product) : product
    }

    /// The record decoded, or nil when the instrument cannot use it: a destination that is
    /// not a generator (linked modulators), a CC source MIDI reserves (bank select, data
    /// entry, RPN/NRPN, channel mode) or an unknown source or curve — FluidSynth skips these too.
    /// So is one identical to `velocityToFilterCutoff`, which FluidSynth evaluates to 0.
    init?(_ record: SoundFontModulator) {
        guard record.destination < UInt16(GeneratorKind.pitch), Self.isUsable(record.source),
              Self.isUsable(record.amountSource), record.transform == 0 || record.transform == 2 else { return nil }
        self.init(source: record.source, amountSource: record.amountSource, destination: Int(record.destination),
                  amount: Float(record.amount), absolute: record.transform == 2)
        guard !isIdentical(to: Self.velocityToFilterCutoff) else { return nil }
    }

    init(source: UInt16, amountSource: UInt16, destination: Int, amount: Float, absolute: Bool = false) {
        self.source = source
        self.amountSource = amountSource
        self.destination = destination
        self.amount = amount
        self.absolute = absolute
    }

    private static func isUsable(_ source: UInt16) -> Bool {
        guard source >> 10 <= 3 else { return false }  // linear, concave, convex, switch
        let index = source & 0x7F
        if source & 0x80 != 0 {
            return ![0, 6, 32, 38, 98, 99, 100, 101].contains(index) && index < 120
        }
        return [0, 2, 3, 10, 13, 14, 16].contains(index)
    }

    // MARK: Sources

    /// Source operator bits: index 0…6, CC flag 7, direction 8 (1: max → min),
    /// polarity 9 (1: bipolar), curve 10…15.
    static let ccFlag: UInt16 = 0x80, negative: UInt16 = 0x100, bipolar: UInt16 = 0x200
    static let concave: UInt16 = 1 << 10, convex: UInt16 = 2 << 10, switchCurve: UInt16 = 3 << 10
    static let noController: UInt16 = 0, velocity: UInt16 = 2, key: UInt16 = 3, polyPressure: UInt16 = 10
    static let channelPressure: UInt16 = 13, pitchWheel: UInt16 = 14, pitchWheelSensitivity: UInt16 = 16

    /// The source's value mapped through its curve, direction and polarity, as FluidSynth
    /// does (7-bit values are divided by 128, the pitch wheel by 16384).
    @inline(__always)
    static func map(_ source: UInt16, _ inputs: ModulationInputs) -> Float {
        let index = Int(source & 0x7F)
        var range: Float = 128
        let raw: Float
        if source & ccFlag != 0 {
            raw = Float(inputs.controllers[index])
        } else {
            switch UInt16(index) {
            case noController: return 1
            case velocity: raw = Float(inputs.velocity)
            case key: raw = Float(inputs.key)
            case polyPressure: raw = Float(inputs.polyPressure)
            case channelPressure: raw = Float(inputs.channelPressure)
            case pitchWheel: raw = Float(inputs.pitchWheel); range = 16_384
            case pitchWheelSensitivity: raw = inputs.bendRange
            default: return 0
            }
        }
        var x = raw / range
        if source & negative != 0 { x = 1 - x }
        let isBipolar = source & bipolar != 0
        switch source >> 10 {
        case 0:
            return isBipolar ? 2 * x - 1 : x
        case 1, 2:
            let isConcave = source >> 10 == 1
            func curve(_ value: Float) -> Float { isConcave ? concaveCurve(value) : convexCurve(value) }
            guard isBipolar else { return curve(127 * x) }
            return x > 0.5 ? curve(254 * (x - 0.5)) : -curve(254 * (0.5 - x))
        default:
            return x >= 0.5 ? 1 : (isBipolar ? -1 : 0)
        }
    }

    /// SF2.01's concave curve on 0…127 (FluidSynth's table, interpolated): a decibel-like
    /// rise, 0 at 0 and 1 at 127.
    static func concaveCurve(_ value: Float) -> Float {
        guard value > 0 else { return 0 }
        guard value < 127 else { return 1 }
        return min(1, -(5.0 / 12) * log10f((127 - value) / 127))
    }

    /// SF2.01's convex curve on 0…127: the concave curve mirrored.
    static func convexCurve(_ value: Float) -> Float {
        guard value > 0 else { return 0 }
        guard value < 127 else { return 1 }
        return max(0, 1 + (5.0 / 12) * log10f(value / 127))
    }

    // MARK: Defaults

    /// SF2.01's default "velocity to filter cutoff" (section 8.4.2), which FluidSynth 2
    /// turns off: any modulator identical to it contributes 0 there ("to stop forcing
    /// velocity based filtering"), so fonts made for it are voiced without it. midihub
    /// leaves it out of the defaults and skips a font's identical one: with it, every
    /// note below velocity 127 sounded darker than FluidSynth plays it (the spectral
    /// centroid 10–17 % lower on TimGM6mb, `FidelityTests`).
    static let velocityToFilterCutoff = Modulation(source: velocity | negative, amountSource: velocity | switchCurve,
                                                   destination: GeneratorKind.filterCutoff, amount: -2400)

    /// The SF2.01 default modulators (section 8.4), with FluidSynth's amounts: velocity to
    /// attenuation, channel pressure and CC 1 to vibrato depth, CC 7 and 11 to attenuation,
    /// CC 10 to pan, CC 91/93 to the reverb and chorus sends, and the pitch wheel (scaled by
    /// its RPN 0 range) to pitch; not velocity to filter cutoff (`velocityToFilterCutoff`).
    static let defaults: [Modulation] = [
        Modulation(source: velocity | negative | concave, amountSource: noController,
                   destination: GeneratorKind.attenuation, amount: 960),
        Modulation(source: channelPressure, amountSource: noController, destination: GeneratorKind.vibratoLFOToPitch, amount: 50),
        Modulation(source: ccFlag | 1, amountSource: noController, destination: GeneratorKind.vibratoLFOToPitch, amount: 50),
        Modulation(source: ccFlag | 7 | negative | concave, amountSource: noController,
                   destination: GeneratorKind.attenuation, amount: 960),
        Modulation(source: ccFlag | 10 | bipolar, amountSource: noController, destination: GeneratorKind.pan, amount: 500),
        Modulation(source: ccFlag | 11 | negative | concave, amountSource: noController,
                   destination: GeneratorKind.attenuation, amount: 960),
        Modulation(source: ccFlag | 91, amountSource: noController, destination: GeneratorKind.reverbSend, amount: 200),
        Modulation(source: ccFlag | 93, amountSource: noController, destination: GeneratorKind.chorusSend, amount: 200),
        Modulation(source: pitchWheel | bipolar, amountSource: pitchWheelSensitivity,
                   destination: GeneratorKind.pitch, amount: 12_700),
    ]
}

/// What modulator sources read: one channel's controllers and the voice's key and velocity.
///
/// - Thread: render.
struct ModulationInputs {
    /// The channel's 128 controller values.
    var controllers: UnsafePointer<UInt8>
    var key: UInt8
    var velocity: UInt8
    var polyPressure: UInt8
    var channelPressure: UInt8
    /// 0…16383, 8192 centred.
    var pitchWheel: UInt16
    /// Semitones (RPN 0).
    var bendRange: Float
}
