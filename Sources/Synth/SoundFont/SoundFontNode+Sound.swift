import RenderCore

extension SoundFontNode {
    /// Applies one of the sound parameters (`SoundFontSoundKnobs`), already clamped.
    /// - Thread: render.
    func setSoundParameter(_ parameter: Parameter, _ value: Float) {
        switch parameter {
        case .cutoff: sound.cutoff.set(100 * value)
        case .resonance: sound.resonance.set(10 * value)
        case .tuning: sound.tuning.set(value)
        case .attack: offsets.setNode(GeneratorKind.volumeAttack, SoundFontSoundKnobs.timecents(scale: value))
        case .decay: offsets.setNode(GeneratorKind.volumeDecay, SoundFontSoundKnobs.timecents(scale: value))
        case .release: offsets.setNode(GeneratorKind.volumeRelease, SoundFontSoundKnobs.timecents(scale: value))
        case .transpose:
            let semitones = value.rounded()
            guard semitones != offsets.node(GeneratorKind.coarseTune) else { return }
            offsets.setNode(GeneratorKind.coarseTune, semitones)
            updateAllVoices()
        case .reverbSend: sound.reverbSend.set(value / 100)
        case .chorusSend: sound.chorusSend.set(value / 100)
        case .masterGain, .voiceLimit, .interpolation: break
        }
    }

    /// Moves the smoothed offsets sounding voices read (cutoff, resonance, tuning) on by
    /// `frames`, and has the voices re-read them while they move.
    /// - Thread: render.
    func advanceSoundKnobs(frames: Int) {
        guard sound.isRampingVoices else { return }
        offsets.setNode(GeneratorKind.filterCutoff, sound.cutoff.advance(frames))
        offsets.setNode(GeneratorKind.filterQ, sound.resonance.advance(frames))
        offsets.setNode(GeneratorKind.fineTune, sound.tuning.advance(frames))
        updateAllVoices()
    }

    /// Every sounding voice re-reads its realtime generators (pitch, level, filter, sends).
    /// - Thread: render.
    func updateAllVoices() {
        for channel in 0..<16 { updateVoices(channel: channel) }
    }

    /// NRPN MSB (CC 99) or LSB (CC 98), stored already: the SoundFont NRPN's generator
    /// selection, as FluidSynth's `fluid_synth_cc` keeps it.
    /// - Thread: render.
    func selectNRPN(channel: Int, controller: UInt8, value: UInt8) {
        if controller == 99 {
            controllers![128 * channel + 98] = 0
            channels![channel].nrpnSelect = 0
        } else if controllers![128 * channel + 99] == 120 {
            switch value {
            case 100: channels![channel].nrpnSelect += 100
            case 101: channels![channel].nrpnSelect += 1_000
            case 102: channels![channel].nrpnSelect += 10_000
            case ..<100: channels![channel].nrpnSelect += Int(value)
            default: break
            }
        }
    }

    /// The generator a Roland GS (and Yamaha XG) NRPN of MSB 1 moves, and the offset of one
    /// step of its data entry from 64 (the preset's own): vibrato rate (LSB 8), filter cutoff
    /// (32), resonance (33), the volume envelope's attack (99), decay (100) and release (102).
    /// GS leaves the units to the instrument: here a step is 1/16 octave (75 cents or
    /// timecents) of rate, cutoff or time, and half a decibel of resonance.
    /// - Thread: any.
    static func gsNRPN(lsb: UInt8) -> (kind: Int, step: Float)? {
        switch lsb {
        case 0x08: (GeneratorKind.vibratoLFOFrequency, 75)
        case 0x20: (GeneratorKind.filterCutoff, 75)
        case 0x21: (GeneratorKind.filterQ, 5)
        case 0x63: (GeneratorKind.volumeAttack, 75)
        case 0x64: (GeneratorKind.volumeDecay, 75)
        case 0x66: (GeneratorKind.volumeRelease, 75)
        default: nil
        }
    }

    /// Data entry MSB (CC 6) while an NRPN is selected: a GS NRPN (MSB 1, `gsNRPN`) sets the
    /// channel's offset of its generator to (value − 64) steps; a SoundFont NRPN (MSB 120, LSB below
    /// 100) sets the channel's offset of the selected generator to the 14-bit value (with
    /// CC 38 as its low bits) less 8192, times FluidSynth's scale for that generator.
    /// - Thread: render.
    func dataEntryNRPN(channel: Int, msb: UInt8) {
        let cc = controllers! + 128 * channel
        if cc[99] == 1 {
            if let (kind, step) = Self.gsNRPN(lsb: cc[98]) { offsets.setChannel(channel, kind, Float(Int(msb) - 64) * step) }
            return
        }
        guard cc[99] == 120, cc[98] < 100 else { return }
        let kind = channels![channel].nrpnSelect
        channels![channel].nrpnSelect = 0
        guard kind < GeneratorKind.pitch, SoundFontGeneratorOffsets.nrpnScale(kind) != 0 else { return }
        let data = Int(msb) << 7 + Int(cc[38])
        offsets.setChannel(channel, kind, SoundFontGeneratorOffsets.nrpnValue(kind, data: data))
    }
}
