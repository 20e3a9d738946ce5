import Glibc
import SoundFont
import SynthKernels

/// - Thread: render.
extension SoundFontVoice {
    /// Starts the voice on `region` for a note: reads the region's generators plus its
    /// modulators' contributions and the channel's and node's `offsets`, and sets up the
    /// sample, pitch, envelopes, LFOs and filter. `generators` is scratch space for
    /// `GeneratorKind.count` values. The voice ticks at
    /// once, then on the node's grid: its first tick lasts `framesToGrid` (1…`tickFrames`)
    /// frames, so all voices tick together and render in whole spans.
    /// - Thread: render.
    mutating func start(region: Int32, map: SoundFontVoiceMap, generators: UnsafeMutablePointer<Float>,
                        offsets: UnsafePointer<Float>, inputs: ModulationInputs, channel: UInt8, age: UInt64, sampleRate: Float, framesToGrid: Int) {
        let g = generators
        Self.modulatedGenerators(region: region, map: map, inputs: inputs, offsets: offsets, into: g)
        let regionInfo = map.regions[Int(region)]
        let sample = map.samples[Int(regionInfo.sample)]
        self = SoundFontVoice()
        isActive = true
        self.channel = channel
        key = inputs.key
        velocity = inputs.velocity
        self.region = region
        self.age = age
        exclusiveClass = Int32(g[GeneratorKind.exclusiveClass])
        frames = map.frames

        setSampleBounds(sample, g, frameCount: map.frames.count)
        loopMode = Int(g[GeneratorKind.sampleModes]) & 3 == 3 ? 3 : Int(g[GeneratorKind.sampleModes]) & 1
        if loopEnd - loopStart < 2 { loopMode = 0 }
        position = Double(start)

        let pitchKey = g[GeneratorKind.keyNumber] >= 0 ? g[GeneratorKind.keyNumber] : Float(inputs.key)
        let rootKey = g[GeneratorKind.overridingRootKey] >= 0 ? g[GeneratorKind.overridingRootKey]
            : Float(sample.originalPitch <= 127 ? sample.originalPitch : 60)
        rootPitch = Double(rootKey) * 100 - Double(sample.pitchCorrection)
        rateRatio = sample.sampleRate / sampleRate
        // FluidSynth's expression in Double as there: with the whole cents of `tick`, its
        // rounding makes the same pitch to the hundredth of a cent (else up to 1 cent apart).
        keyPitch = Double(g[GeneratorKind.scaleTuning]) * (Double(pitchKey) - rootPitch / 100) + rootPitch

        let keySteps = 60 - pitchKey
        let tickSeconds = Float(Self.tickFrames) / sampleRate
        volumeEnvelope = TickEnvelope(generators: g, from: GeneratorKind.volumeDelay, keySteps: keySteps,
                                      minimumRelease: -7_200, tickSeconds: tickSeconds, releaseMaximum: 1)
        modulationEnvelope = TickEnvelope(generators: g, from: GeneratorKind.modEnvelopeDelay, keySteps: keySteps,
                                          minimumRelease: -12_000, tickSeconds: tickSeconds, releaseMaximum: 2)
        modulationLFO = TriangleLFO(delay: g[GeneratorKind.modLFODelay], frequency: g[GeneratorKind.modLFOFrequency],
                                    sampleRate: sampleRate)
        vibratoLFO = TriangleLFO(delay: g[GeneratorKind.vibratoLFODelay], frequency: g[GeneratorKind.vibratoLFOFrequency],
                                 sampleRate: sampleRate)
        applyRealtime(g)
        tick(sampleRate: sampleRate)
        tickFramesLeft = framesToGrid
    }

    /// Re-reads the generators a controller can move while the voice sounds (pitch, level,
    /// pan, filter, LFO and envelope depths) after a channel's controllers or the generator
    /// offsets changed (the envelopes keep their times: those apply to the notes after).
    /// - Thread: render.
    mutating func updateModulated(map: SoundFontVoiceMap, generators: UnsafeMutablePointer<Float>,
                                  offsets: UnsafePointer<Float>, inputs: ModulationInputs) {
        Self.modulatedGenerators(region: region, map: map, inputs: inputs, offsets: offsets, into: generators)
        applyRealtime(generators)
    }

    private mutating func applyRealtime(_ g: UnsafeMutablePointer<Float>) {
        pitch = keyPitch + Double(g[GeneratorKind.pitch] + 100 * g[GeneratorKind.coarseTune] + g[GeneratorKind.fineTune])
        attenuation = min(max(g[GeneratorKind.attenuation], 0), 1_440)
        attenuationGain = centibelsToAmplitude(attenuation)
        let pan = min(max(g[GeneratorKind.pan], -500), 500)
        panLeft = sinQuarter((500 - pan) / 1000)
        panRight = sinQuarter((500 + pan) / 1000)
        reverbSend = min(max(g[GeneratorKind.reverbSend], 0), 1_000) / 1_000
        chorusSend = min(max(g[GeneratorKind.chorusSend], 0), 1_000) / 1_000
        cutoffCents = g[GeneratorKind.filterCutoff]
        filter.setQ(centibels: g[GeneratorKind.filterQ])
        filterCents = .nan
        modLFOToPitch = clamp(g[GeneratorKind.modLFOToPitch], 12_000)
        vibratoLFOToPitch = clamp(g[GeneratorKind.vibratoLFOToPitch], 12_000)
        modEnvelopeToPitch = clamp(g[GeneratorKind.modEnvelopeToPitch], 12_000)
        modLFOToCutoff = clamp(g[GeneratorKind.modLFOToFilterCutoff], 12_000)
        modEnvelopeToCutoff = clamp(g[GeneratorKind.modEnvelopeToFilterCutoff], 12_000)
        modLFOToVolume = clamp(g[GeneratorKind.modLFOToVolume], 960)
    }

    private func clamp(_ value: Float, _ limit: Float) -> Float { min(max(value, -limit), limit) }

    /// The sample's frames with the region's address offsets, kept inside the sample data;
    /// a loop outside the played frames is dropped.
    private mutating func setSampleBounds(_ sample: SoundFontVoiceMap.Sample, _ g: UnsafeMutablePointer<Float>, frameCount: Int) {
        func offset(_ fine: Int, _ coarse: Int) -> Int { Int(g[fine]) + 32_768 * Int(g[coarse]) }
        let last = max(frameCount, 1)
        start = min(max(sample.start + offset(GeneratorKind.startAddressOffset, GeneratorKind.startAddressCoarseOffset), 0), last - 1)
        end = min(max(sample.end + offset(GeneratorKind.endAddressOffset, GeneratorKind.endAddressCoarseOffset), start + 1), last)
        loopStart = min(max(sample.loopStart + offset(GeneratorKind.startLoopOffset, GeneratorKind.startLoopCoarseOffset), start), end)
        loopEnd = min(max(sample.loopEnd + offset(GeneratorKind.endLoopOffset, GeneratorKind.endLoopCoarseOffset), loopStart), end)
    }

    /// The region's generators plus every modulator's contribution plus `offsets` (as
    /// FluidSynth adds a channel's NRPN values last), into `g`.
    static func modulatedGenerators(region: Int32, map: SoundFontVoiceMap, inputs: ModulationInputs,
                                    offsets: UnsafePointer<Float>, into g: UnsafeMutablePointer<Float>) {
        let info = map.regions[Int(region)]
        g.update(from: map.generators.baseAddress! + Int(info.generators), count: GeneratorKind.count)
        var inputs = inputs
        if g[GeneratorKind.velocity] > 0 { inputs.velocity = UInt8(min(g[GeneratorKind.velocity], 127)) }
        for index in info.modulations {
            let modulation = map.modulations[index]
            g[modulation.destination] += modulation.value(inputs)
        }
        for kind in 0..<GeneratorKind.count { g[kind] += offsets[kind] }
    }
}
