import Glibc
import SoundFont

/// One sounding region of a note: a sample read at a pitch, through a resonant low-pass,
/// shaped by the volume envelope and panned. The modulation envelope and two triangle LFOs
/// move pitch, cutoff and volume once per control tick (`tickFrames`), as in FluidSynth;
/// amplitude ramps linearly across each tick. A voice starts at its exact frame with a tick
/// of its own; its later ticks fall on the node's grid of `tickFrames`, shared by all voices.
///
/// - Thread: render (a plain value in the node's voice pool); `start` and `updateModulated`
///   run on the render thread inside event handling.
struct SoundFontVoice {
    static let tickFrames = 64

    // What the voice plays, for note-off, stealing and controller updates.
    var isActive = false
    var channel: UInt8 = 0
    var key: UInt8 = 0
    var velocity: UInt8 = 0
    var region: Int32 = 0
    var exclusiveClass: Int32 = 0
    var age: UInt64 = 0
    var isReleased = false
    var isSustained = false
    var isFading = false

    // The sample.
    var frames: SoundFontFrames?
    var start = 0, end = 0, loopStart = 0, loopEnd = 0
    /// SF2 sample modes: 0 no loop, 1 loop, 3 loop until release.
    var loopMode = 0
    var position: Double = 0
    var increment: Double = 0

    // Pitch, in cents.
    var pitch: Double = 0
    var rootPitch: Double = 0
    /// The key's pitch from the root key and scale tuning, before tuning generators and modulators.
    var keyPitch: Double = 0
    /// The sample's rate over the output rate.
    var rateRatio: Float = 1

    // Level.
    /// Centibels, modulated, 0…1440.
    var attenuation: Float = 0
    /// `attenuation` as an amplitude.
    var attenuationGain: Float = 1
    var panLeft: Float = 0, panRight: Float = 0
    /// Send levels to the reverb and chorus (0…1), unpanned.
    var reverbSend: Float = 0, chorusSend: Float = 0
    var amplitude: Float = 0
    var amplitudeStep: Float = 0
    var fadeGain: Float = 1
    var fadeStep: Float = 0

    // Modulation sources and depths (cents or centibels).
    var volumeEnvelope = TickEnvelope()
    var modulationEnvelope = TickEnvelope()
    var modulationLFO = TriangleLFO()
    var vibratoLFO = TriangleLFO()
    var modLFOToPitch: Float = 0, vibratoLFOToPitch: Float = 0, modEnvelopeToPitch: Float = 0
    var modLFOToCutoff: Float = 0, modEnvelopeToCutoff: Float = 0, modLFOToVolume: Float = 0

    var filter = ResonantLowPass()
    /// The filter's base cutoff in absolute cents, modulated.
    var cutoffCents: Float = 13_500
    /// The pitch (whole cents) `increment` was computed for, and the cutoff (cents) the
    /// filter was set to: a tick recomputes them only when they move (NaN: not yet).
    var incrementCents = Double.nan
    var filterCents = Float.nan
    /// Frames since the voice started (LFO delays count them).
    var elapsed = 0
    /// Frames left in the current tick.
    var tickFramesLeft = 0

    /// Whether the sample loops now (mode 1 always, mode 3 until release).
    var isLooping: Bool {
        loopMode == 1 || (loopMode == 3 && volumeEnvelope.section.rawValue < TickEnvelope.Section.release.rawValue)
    }

    /// Note-off (or sustain pedal up): both envelopes go to release. A volume envelope still
    /// in its attack (linear in amplitude) continues from the decibel value that sounds as loud.
    mutating func release() {
        isReleased = true
        isSustained = false
        var value = volumeEnvelope.value
        if volumeEnvelope.section == .attack {
            let lfo = modulationLFO.value * -modLFOToVolume
            let amplitude = value * centibelsToAmplitude(lfo)
            value = amplitude > 0 ? min(max(1 - (amplitudeToCentibels(amplitude) - lfo) / 960, 0), 1) : 0
        }
        volumeEnvelope.release(from: value)
        let modulation = modulationEnvelope.section == .attack ? Modulation.convexCurve(127 * modulationEnvelope.value)
            : modulationEnvelope.value
        modulationEnvelope.release(from: modulation)
    }

    /// Fades out over `frames` frames, then ends (stealing, all sound off, exclusive class).
    mutating func fade(frames: Int) {
        guard !isFading else { return }
        isFading = true
        fadeStep = fadeGain / Float(max(frames, 1))
    }

    /// True once the voice has nothing more to play.
    var isFinished: Bool { !isActive }
}

/// A SoundFont LFO: a triangle from 0, rising first, stepped once per tick after its delay.
///
/// - Thread: render (a plain value).
struct TriangleLFO {
    private(set) var value: Float = 0
    private var increment: Float = 0
    private var delayFrames = 0

    /// - Parameters: `delay` in timecents, `frequency` in absolute cents (8.176 Hz at 0).
    init(delay: Float = -12_000, frequency: Float = 0, sampleRate: Float = 48_000) {
        delayFrames = Int(sampleRate * TickEnvelope.seconds(clamping: delay, -12_000...5_000))
        let hertz = 8.175_799 * exp2Fast(min(max(frequency, -16_000), 4_500) / 1200)
        increment = 4 * Float(SoundFontVoice.tickFrames) * hertz / sampleRate
    }

    /// One tick; `elapsed` is the voice's frame count at the tick.
    @inline(__always)
    mutating func step(elapsed: Int) {
        guard elapsed >= delayFrames else { return }
        value += increment
        if value > 1 {
            increment = -increment
            value = 2 - value
        } else if value < -1 {
            increment = -increment
            value = -2 - value
        }
    }
}

/// Amplitude of an attenuation in centibels (10^(-cB/200)): from a table of whole
/// centibels, interpolated (FluidSynth reads such a table too), for 0 ≤ cB < 2400 (-240 dB,
/// all an envelope, attenuation and LFO can reach); a gain above 1 (a negative
/// attenuation) computed.
/// `table` is `CentibelTable.amplitudes`, which the render thread's hot callers pass in
/// (reading the global checks its one-time set-up at every read).
/// - Thread: any (pure).
@inline(__always)
func centibelsToAmplitude(_ centibels: Float, table: UnsafePointer<Float> = CentibelTable.amplitudes) -> Float {
    guard centibels >= 0 else { return exp2Fast(centibels * -0.016_609_64) }
    guard centibels < Float(CentibelTable.size - 1) else { return 0 }
    let whole = Int(centibels)
    let low = table[whole]
    return low + (centibels - Float(whole)) * (table[whole &+ 1] - low)
}

/// 10^(-cB/200) for whole centibels 0 ..< `size`, made once (on first use, which
/// `SoundFontNode.init` makes on the control side) and kept.
///
/// - Thread: any (read-only after it is made).
enum CentibelTable {
    static let size = 2401
    nonisolated(unsafe) static let amplitudes: UnsafePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: size)
        for cb in 0..<size { table[cb] = Float(pow(10, Double(cb) / -200)) }
        return UnsafePointer(table)
    }()
}

/// Attenuation in centibels of an amplitude (the inverse of `centibelsToAmplitude`).
/// - Thread: any (pure).
func amplitudeToCentibels(_ amplitude: Float) -> Float {
    -200 * log2Approximation(amplitude) * 0.301_029_996
}

/// log2 for positive normal values (control-rate use; about 1e-4 accurate).
/// - Thread: any (pure).
func log2Approximation(_ x: Float) -> Float {
    let bits = x.bitPattern
    let exponent = Float(Int32(bitPattern: (bits >> 23) & 0xFF) - 127)
    let mantissa = Float(bitPattern: (bits & 0x007F_FFFF) | 0x3F80_0000)  // 1 ≤ m < 2
    let t = (mantissa - 1) / (mantissa + 1)
    let t2 = t * t
    return exponent + 2.885_390_08 * t * (1 + t2 * (1.0 / 3 + t2 * (1.0 / 5 + t2 / 7)))
}
