import RenderCore
import SoundFont
import VoiceLanes

/// The `soundfont` instrument: plays a SoundFont 2 font on 16 MIDI channels (percussion on
/// channel 10 from bank 128), with the font's generators and modulators plus the SF2.01
/// default modulators, as FluidSynth does, so General MIDI files sound as the font's
/// author voiced them.
///
/// The font is read and flattened on the control side (`init`); `prepare` allocates the
/// voice pool and channel state; `process` allocates nothing. Switching fonts is replacing
/// the node, which the render engine crossfades.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control; descriptors any.
public final class SoundFontNode: Node, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Output level in dB (-14 dB is FluidSynth's default gain of 0.2).
        case masterGain = 0
        /// Voices that may sound at once (beyond it, released then oldest voices are stolen).
        case voiceLimit = 1
        /// 0 linear, 1 cubic (4-point), 2 six-point.
        case interpolation = 2
        // The sound over every preset (`SoundFontSoundKnobs`): offsets onto the generators.
        /// Semitones onto the filter cutoff (`initialFilterFc`).
        case cutoff = 3
        /// Decibels onto the filter's resonance (`initialFilterQ`).
        case resonance = 4
        /// Scales of the volume envelope's attack, decay and release times.
        case attack = 5, decay = 6, release = 7
        /// Cents onto every note's pitch (`fineTune`).
        case tuning = 8
        /// Whole semitones onto every note's pitch (`coarseTune`).
        case transpose = 9
        /// The reverb and chorus sends in percent of what the font and controllers set.
        case reverbSend = 10, chorusSend = 11
    }

    public typealias Output = InstrumentOutput

    public static let nodeDescriptor = NodeDescriptor(kind: .instrument, subtype: "sfnt", manufacturer: "mhub",
                                                      name: "midihub soundfont", version: 0x01_00_00)
    /// `nodeDescriptor`.
    /// - Thread: any.
    public var descriptor: NodeDescriptor { Self.nodeDescriptor }
    public let parameters: [ParameterInfo]
    public let outputs = InstrumentOutput.infos
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// The font's name (its INFO/INAM).
    /// - Thread: any.
    public var fontName: String { map.font.name }
    public let voiceCapacity: Int
    let map: SoundFontVoiceMap

    /// Seconds a stolen or silenced voice takes to fade out.
    static let fadeSeconds: Float = 0.005
    static let defaultGain: Float = -14

    // Render-thread state, allocated in prepare.
    var voices: UnsafeMutablePointer<SoundFontVoice>?
    var channels: UnsafeMutablePointer<SoundFontChannel>?
    /// 16 × 128 controller values.
    var controllers: UnsafeMutablePointer<UInt8>?
    /// 16 × 128 polyphonic key pressures.
    var keyPressures: UnsafeMutablePointer<UInt8>?
    /// Scratch for one voice's generator values.
    var generators: UnsafeMutablePointer<Float>?
    /// Scratch: the slots of the voices being rendered, and of those sharing lanes.
    var activeSlots: UnsafeMutablePointer<Int>?
    var laneSlots: UnsafeMutablePointer<Int>?
    /// Scratch: the copies of the voices in the lanes, and the lanes' values of one pass
    /// (`SoundFontVoiceLanes.scratchFrames` vectors of `laneWidth`).
    var laneCopies: UnsafeMutablePointer<LaneVoice>?
    var laneValues: UnsafeMutableRawPointer?
    /// Voices rendered together at most (`SoundFontVoiceLanes.width`; 4 in tests of the
    /// four-lane path on any processor).
    var laneWidth = SoundFontVoiceLanes.width
    /// `CentibelTable.amplitudes`, read once here for the voices' ticks.
    let centibelTable = CentibelTable.amplitudes
    var voiceLimit: Int
    var soundingCount = 0
    var activeCount = 0
    var nextAge: UInt64 = 0
    /// Frames rendered since the last tick of the voices' shared grid (0 ..< tickFrames).
    var gridPhase = 0
    var interpolation = SampleInterpolation.cubic
    var masterGain = SmoothedValue(decibelsToGain(SoundFontNode.defaultGain))
    /// What the sound parameters and the channels' NRPNs add to every voice's generators.
    var offsets = SoundFontGeneratorOffsets()
    var sound = SoundFontSoundKnobs()
    var sampleRate: Float = 48_000
    var fadeFrames = 240

    /// - Parameters:
    ///   - font: the font, read (`SoundFont.open`) on the control side.
    ///   - voiceCapacity: the largest voice limit (memory for it is reserved in `prepare`).
    /// - Thread: control.
    public init(font: SoundFont, voiceCapacity: Int = 256) {
        map = SoundFontVoiceMap(font: font)
        self.voiceCapacity = max(1, voiceCapacity)
        voiceLimit = self.voiceCapacity
        parameters = Self.parameterInfos(voiceCapacity: self.voiceCapacity)
        _ = CentibelTable.amplitudes  // made here, on control: not at the first note, on the render thread
    }

    /// The parameters of a node with `voiceCapacity` voices (the registry lists them
    /// without a font).
    /// - Thread: any.
    public static func parameterInfos(voiceCapacity: Int) -> [ParameterInfo] {
        [
            ParameterInfo(id: Parameter.masterGain.rawValue, name: "master gain", range: -60...12,
                          defaultValue: defaultGain, unit: .decibels),
            ParameterInfo(id: Parameter.voiceLimit.rawValue, name: "voice limit", range: 1...Float(voiceCapacity),
                          defaultValue: Float(voiceCapacity), unit: .count),
            ParameterInfo(id: Parameter.interpolation.rawValue, name: "interpolation", range: 0...2,
                          defaultValue: Float(SampleInterpolation.cubic.rawValue), unit: .generic,
                          choices: [ParameterChoice("linear", 0), ParameterChoice("4-point", 1), ParameterChoice("6-point", 2)]),
        ] + SoundFontSoundKnobs.parameterInfos(firstID: Parameter.cutoff.rawValue)
    }

    deinit { deallocate() }

    /// - Thread: control.
    public func prepare(format: RenderFormat) {
        deallocate()
        sampleRate = Float(format.sampleRate)
        fadeFrames = max(16, Int(Self.fadeSeconds * sampleRate))
        voices = .allocate(capacity: voiceCapacity)
        voices!.initialize(repeating: SoundFontVoice(), count: voiceCapacity)
        channels = .allocate(capacity: 16)
        channels!.initialize(repeating: SoundFontChannel(), count: 16)
        controllers = .allocate(capacity: 16 * 128)
        keyPressures = .allocate(capacity: 16 * 128)
        keyPressures!.initialize(repeating: 0, count: 16 * 128)
        for channel in 0..<16 {
            SoundFontChannel.initialControllers(controllers! + 128 * channel)
            selectPreset(channel: channel)
        }
        activeSlots = .allocate(capacity: voiceCapacity)
        laneSlots = .allocate(capacity: 8)
        laneCopies = .allocate(capacity: 8)
        laneValues = .allocate(byteCount: SoundFontVoiceLanes.scratchFrames * 8 * MemoryLayout<Float>.stride, alignment: 32)
        generators = .allocate(capacity: GeneratorKind.count)
        generators!.initialize(repeating: 0, count: GeneratorKind.count)
        masterGain.rampFrames = max(1, Int(0.01 * sampleRate))
        masterGain.reset(decibelsToGain(Self.defaultGain))
        voiceLimit = voiceCapacity
        interpolation = .cubic
        offsets.allocate()
        sound = SoundFontSoundKnobs(rampFrames: masterGain.rampFrames)
        soundingCount = 0
        activeCount = 0
        nextAge = 0
        gridPhase = 0
        preparedFormat = format
    }

    private func deallocate() {
        voices?.deallocate(); voices = nil
        channels?.deallocate(); channels = nil
        controllers?.deallocate(); controllers = nil
        keyPressures?.deallocate(); keyPressures = nil
        generators?.deallocate(); generators = nil
        activeSlots?.deallocate(); activeSlots = nil
        laneSlots?.deallocate(); laneSlots = nil
        laneCopies?.deallocate(); laneCopies = nil
        laneValues?.deallocate(); laneValues = nil
        offsets.deallocate()
        preparedFormat = nil
    }

    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard preparedFormat != nil else { return }
        let bus = context.bus
        let sends = context.sends.count == 2 ? (reverb: context.sends[0], chorus: context.sends[1]) : nil
        advanceSoundKnobs(frames: context.frames)
        let output = VoiceOutput(left: bus.left, right: bus.right, sends: sends.map { ($0.reverb.left, $0.chorus.left) })
        context.forEachSegment(apply: { event in apply(event) },
                               render: { start, count in renderVoices(output.advanced(by: start), count: count) })
        InstrumentOutput.finishBlock(&masterGain, bus: bus, frames: context.frames, activeVoices: activeCount,
                                     values: outputValues)
        if let sends {
            // The sends at the master gain the block ended with, times their knobs; mono, into both sides.
            let gain = masterGain.current
            func finish(_ send: AudioBus, _ scale: inout SmoothedValue) {
                if scale.isRamping {
                    for frame in 0..<context.frames { send.left[frame] *= gain * scale.next() }
                } else {
                    SampleMath.scale(send.left, by: gain * scale.current, frames: context.frames)
                }
                send.right.update(from: send.left, count: context.frames)
            }
            finish(sends.reverb, &sound.reverbSend)
            finish(sends.chorus, &sound.chorusSend)
        }
    }

    /// The reverb and chorus sends, routed in the graph like the main output
    /// (`{ from: piano, output: reverb, to: hall }`).
    /// - Thread: any.
    public var sendOutputs: [String] { Self.sendOutputNames }

    /// The send outputs, in the order `ProcessContext.sends` hands them.
    public static let sendOutputNames = ["reverb", "chorus"]

    /// Renders every active voice, four at a time where they can share SIMD lanes
    /// (`SoundFontVoiceLanes`, cubic interpolation), and counts those still sounding.
    private func renderVoices(_ output: VoiceOutput, count: Int) {
        let voices = voices!, slots = activeSlots!
        var listed = 0
        for slot in 0..<voiceCapacity where voices[slot].isActive {
            slots[listed] = slot
            listed += 1
        }
        if interpolation == .cubic {
            for first in stride(from: 0, to: listed, by: laneWidth) {
                renderGroup(slots + first, lanes: min(laneWidth, listed - first), output: output, count: count)
            }
        } else {
            for index in 0..<listed {
                voices[slots[index]].render(output, count: count, interpolation: interpolation, sampleRate: sampleRate)
            }
        }
        var active = 0, sounding = 0
        for index in 0..<listed where voices[slots[index]].isActive {
            active += 1
            if !voices[slots[index]].isFading { sounding += 1 }
        }
        activeCount = active
        soundingCount = sounding
        gridPhase = (gridPhase + count) % SoundFontVoice.tickFrames
    }

    /// Voices currently sounding or fading.
    /// - Thread: render (use `outputValues` from other threads).
    public var activeVoiceCount: Int { activeCount }
}
