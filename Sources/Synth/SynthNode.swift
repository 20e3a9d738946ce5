import RenderCore
import SynthKernels

/// The built-in instrument: a polyphonic, 16-channel multi-timbral subtractive synth with a
/// synthesized General MIDI drum kit on channel 10. Sounds come from a `PresetBank`.
///
/// Everything the render thread touches is allocated in `prepare`: voices, channel state,
/// a copy of the bank's timbres and scratch buffers. `process` never allocates.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control; descriptors any.
public final class SynthNode: Node, @unchecked Sendable {
    public enum Parameter: UInt32, CaseIterable, Sendable {
        /// Output level in dB.
        case masterGain = 0
        /// Voices that may sound at once (beyond it, the oldest are stolen).
        case voiceLimit = 1
        /// The knobs over every preset (`SoundShaping`, listed in `SoundShaping.parameterInfos`).
        case brightness, resonance, attack, release, detune, vibrato
        /// Oscillators: waveforms, their mix, oscillator 2's interval, a sub oscillator, noise.
        case osc1Wave, osc2Wave, oscMix, osc2Tune, sub, noise
        /// Filter: cutoff, envelope amount, key tracking.
        case cutoff, filterEnv, keyTrack
        /// The amplitude and filter envelopes.
        case ampAttack, ampDecay, ampSustain, ampRelease, filterAttack, filterDecay, filterSustain, filterRelease
        /// The LFO: free rate, tempo sync and its note length, depth and target.
        case lfoRate, lfoSync, lfoBeats, lfoDepth, lfoTarget
        /// Seconds a note slides from the channel's previous note.
        case glide
    }

    public typealias Output = InstrumentOutput

    public static let nodeDescriptor = NodeDescriptor(kind: .instrument, subtype: "msyn", manufacturer: "mhub",
                                                      name: "midihub synth", version: 0x01_00_00)
    /// `nodeDescriptor`.
    /// - Thread: any.
    public var descriptor: NodeDescriptor { Self.nodeDescriptor }
    public let parameters: [ParameterInfo]
    public let outputs = InstrumentOutput.infos
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// The most voices that can sound at once (the upper bound of `voiceLimit`).
    public let voiceCapacity: Int
    let bank: PresetBank

    /// The build of the per-sample loops this processor runs (chosen once, here).
    let loops = SynthLoops()

    /// Frames between updates of pitch, filter coefficients and gains.
    static let controlInterval = 64
    /// Seconds a stolen or silenced voice takes to fade out.
    static let fadeSeconds: Float = 0.005
    /// Seconds a knob's value takes to glide to where it was set.
    static let knobSeconds: Float = 0.02

    // Render-thread state, allocated in prepare.
    var voices: UnsafeMutablePointer<Voice>?
    var activeVoices: UnsafeMutablePointer<Int32>?
    var freeVoices: UnsafeMutablePointer<Int32>?
    var channels: UnsafeMutablePointer<ChannelState>?
    var timbres: UnsafeMutablePointer<Timbre>?
    var programTimbre: UnsafeMutablePointer<Int32>?
    var drumTimbre: UnsafeMutablePointer<Int32>?
    /// Oscillator signal columns of one voice group (`VoiceGroup.width × controlInterval`).
    var scratch: UnsafeMutablePointer<Float>?
    /// Per-frame lane sums of the voice groups: left then right, `controlInterval` each.
    var laneMix: UnsafeMutablePointer<VoiceGroup.Lanes>?
    /// The per-lane fields of the voice group being rendered (`LaneField`).
    var laneFields: UnsafeMutablePointer<VoiceGroup.Lanes>?
    var poolSize = 0
    var activeCount = 0
    var freeCount = 0
    /// Active voices that are not fading (what the voice limit counts).
    var soundingCount = 0
    var voiceLimit: Int
    var nextAge: UInt64 = 0
    var masterGain = SmoothedValue(decibelsToGain(-10))
    /// Where the knobs stand (targets and smoothed values).
    var knobs: SynthKnobs
    /// The knobs as the voices hear them this control period.
    var shaping = SoundShaping()
    /// Seconds per quarter note at the host's tempo (for the tempo-synced LFO).
    var secondsPerBeat: Float = 0.5
    var sampleRate: Float = 48_000
    var fadeFrames = 240

    /// - Parameters:
    ///   - bank: the sounds; channel 10 plays its drum notes.
    ///   - voiceCapacity: the largest voice limit (memory is reserved for it in `prepare`).
    /// - Thread: control.
    public init(bank: PresetBank, voiceCapacity: Int = 256) {
        self.bank = bank
        self.voiceCapacity = max(1, voiceCapacity)
        voiceLimit = self.voiceCapacity
        let infos = [
            ParameterInfo(id: Parameter.masterGain.rawValue, name: "master gain", range: -60...12, defaultValue: -10, unit: .decibels),
            ParameterInfo(id: Parameter.voiceLimit.rawValue, name: "voice limit", range: 1...Float(self.voiceCapacity),
                          defaultValue: Float(self.voiceCapacity), unit: .count),
        ] + SoundShaping.parameterInfos(firstID: Parameter.brightness.rawValue)
        precondition(infos.count == Parameter.allCases.count, "one ParameterInfo per SynthNode.Parameter")
        parameters = infos
        knobs = SynthKnobs(infos, rampFrames: Int(Self.knobSeconds * 48_000))
    }

    deinit { deallocate() }

    /// - Thread: control.
    public func prepare(format: RenderFormat) {
        deallocate()
        sampleRate = Float(format.sampleRate)
        fadeFrames = max(16, Int(Self.fadeSeconds * sampleRate))
        poolSize = voiceCapacity + max(32, voiceCapacity / 4)
        voices = .allocate(capacity: poolSize)
        voices!.initialize(repeating: Voice(), count: poolSize)
        activeVoices = .allocate(capacity: poolSize)
        freeVoices = .allocate(capacity: poolSize)
        for slot in 0..<poolSize { freeVoices![slot] = Int32(poolSize - 1 - slot) }
        activeCount = 0
        freeCount = poolSize
        soundingCount = 0
        channels = .allocate(capacity: 16)
        channels!.initialize(repeating: ChannelState(), count: 16)
        timbres = .allocate(capacity: bank.timbres.count)
        timbres!.initialize(from: bank.timbres, count: bank.timbres.count)
        programTimbre = .allocate(capacity: 128)
        drumTimbre = .allocate(capacity: 128)
        for i in 0..<128 {
            programTimbre![i] = Int32(bank.programTimbre[i])
            drumTimbre![i] = Int32(bank.drumTimbre[i])
        }
        scratch = .allocate(capacity: VoiceGroup.width * Self.controlInterval)
        laneMix = .allocate(capacity: 2 * Self.controlInterval)
        laneFields = .allocate(capacity: LaneField.count)
        masterGain.rampFrames = max(1, Int(0.01 * sampleRate))
        masterGain.reset(decibelsToGain(-10))
        voiceLimit = voiceCapacity
        knobs = SynthKnobs(parameters, rampFrames: max(1, Int(Self.knobSeconds * sampleRate)))
        shaping = SoundShaping()
        secondsPerBeat = 0.5
        nextAge = 0
        preparedFormat = format
    }

    private func deallocate() {
        voices?.deallocate(); voices = nil
        activeVoices?.deallocate(); activeVoices = nil
        freeVoices?.deallocate(); freeVoices = nil
        channels?.deallocate(); channels = nil
        timbres?.deallocate(); timbres = nil
        programTimbre?.deallocate(); programTimbre = nil
        drumTimbre?.deallocate(); drumTimbre = nil
        scratch?.deallocate(); scratch = nil
        laneMix?.deallocate(); laneMix = nil
        laneFields?.deallocate(); laneFields = nil
        preparedFormat = nil
    }

    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard preparedFormat != nil else { return }
        secondsPerBeat = Float(context.host.secondsPerBeat)
        let bus = context.bus
        context.forEachSegment(apply: { event in apply(event) },
                               render: { start, count in renderVoices(into: bus, start: start, count: count) })
        InstrumentOutput.finishBlock(&masterGain, bus: bus, frames: context.frames, activeVoices: activeCount,
                                     values: outputValues)
    }

    /// Voices currently sounding or fading.
    /// - Thread: render (use `outputValues` from other threads).
    public var activeVoiceCount: Int { activeCount }
}
