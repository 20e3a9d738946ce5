import RenderCore

/// - Thread: render.
extension SoundFontNode {
    /// Applies one event at the current frame.
    /// - Thread: render.
    func apply(_ event: RenderEvent) {
        let channel = Int(event.channel & 15)
        switch event.kind {
        case .noteOn:
            if event.data2 == 0 {
                noteOff(channel: channel, key: event.data1 & 127)
            } else {
                noteOn(channel: channel, key: event.data1 & 127, velocity: min(event.data2, 127))
            }
        case .noteOff:
            noteOff(channel: channel, key: event.data1 & 127)
        case .controlChange:
            controlChange(channel: channel, controller: event.data1 & 127, value: min(event.data2, 127))
        case .programChange:
            channels![channel].state.program = Int(event.data1 & 127)
            selectPreset(channel: channel)
        case .pitchBend:
            channels![channel].pitchWheel = min(event.bend, 16_383)
            updateVoices(channel: channel)
        case .channelPressure:
            channels![channel].pressure = min(event.data2, 127)
            updateVoices(channel: channel)
        case .polyPressure:
            keyPressures![128 * channel + Int(event.data1 & 127)] = min(event.data2, 127)
            updateVoices(channel: channel)
        case .parameter:
            setParameter(event.parameter, event.value)
        }
    }

    /// Resolves the channel's bank and program to a preset (channel 10 plays bank 128).
    func selectPreset(channel: Int) {
        let bank = channel == 9 ? SoundFontVoiceMap.percussionBank : Int(channels![channel].bank)
        channels![channel].preset = Int32(map.resolvePreset(bank: bank, program: channels![channel].state.program))
    }

    private func setParameter(_ id: UInt32, _ value: Float) {
        guard let parameter = Parameter(rawValue: id), value.isFinite else { return }
        let clamped = parameters[Int(id)].clamp(value)
        switch parameter {
        case .masterGain: masterGain.set(decibelsToGain(clamped))
        case .voiceLimit: voiceLimit = Int(clamped)
        case .interpolation: interpolation = SampleInterpolation(rawValue: Int(clamped.rounded())) ?? .cubic
        default: setSoundParameter(parameter, clamped)
        }
    }

    private func controlChange(channel: Int, controller: UInt8, value: UInt8) {
        controllers![128 * channel + Int(controller)] = value
        switch controller {
        case 0:
            channels![channel].bank = value
        case 64:
            let down = value >= 64
            channels![channel].state.sustain = down
            if !down { forEachVoice(channel: channel) { voice in if voice.pointee.isSustained { voice.pointee.release() } } }
        case 120:
            forEachVoice(channel: channel) { voice in voice.pointee.fade(frames: fadeFrames) }
        case 6:
            _ = channels![channel].state.applyController(controller, value)
            if !channels![channel].state.dataEntryTargetsRPN { dataEntryNRPN(channel: channel, msb: value) }
            updateVoices(channel: channel)
        case 98, 99:
            _ = channels![channel].state.applyController(controller, value)
            selectNRPN(channel: channel, controller: controller, value: value)
        case 121:
            let volume = controllers![128 * channel + 7], pan = controllers![128 * channel + 10]
            SoundFontChannel.initialControllers(controllers! + 128 * channel)
            controllers![128 * channel + 7] = volume
            controllers![128 * channel + 10] = pan
            channels![channel].state.resetControllers()
            channels![channel].pitchWheel = 8192
            channels![channel].pressure = 0
            channels![channel].nrpnSelect = 0
            offsets.resetChannel(channel)
            forEachVoice(channel: channel) { voice in if voice.pointee.isSustained { voice.pointee.release() } }
            updateVoices(channel: channel)
        case 123:
            let sustain = channels![channel].state.sustain
            forEachVoice(channel: channel) { voice in noteOffVoice(voice, sustain: sustain) }
        default:
            _ = channels![channel].state.applyController(controller, value)
            updateVoices(channel: channel)
        }
    }

    private func noteOn(channel: Int, key: UInt8, velocity: UInt8) {
        // A key struck again ends its earlier voices on the channel (they release, as in FluidSynth).
        forEachVoice(channel: channel) { voice in
            if voice.pointee.key == key && !voice.pointee.isReleased { voice.pointee.release() }
        }
        let preset = channels![channel].preset
        guard preset >= 0 else { return }
        let inputs = modulationInputs(channel: channel, key: key, velocity: velocity)
        let firstAge = nextAge
        for region in map.presets[Int(preset)].regions {
            let info = map.regions[region]
            // Plain comparisons: `ClosedRange<UInt8>.contains` is generic code that allocates in debug builds.
            guard key >= info.keys.lowerBound, key <= info.keys.upperBound,
                  velocity >= info.velocities.lowerBound, velocity <= info.velocities.upperBound else { continue }
            let slot = takeVoice()
            voices![slot].start(region: Int32(region), map: map, generators: generators!, offsets: offsets.row(channel: channel),
                                inputs: inputs, channel: UInt8(channel), age: nextAge, sampleRate: sampleRate,
                                framesToGrid: SoundFontVoice.tickFrames - gridPhase)
            nextAge &+= 1
            activeCount += 1
            soundingCount += 1
            let exclusiveClass = voices![slot].exclusiveClass
            if exclusiveClass != 0 {
                // The class's earlier voices on this channel stop (an open hi-hat closed by the pedal one).
                forEachVoice(channel: channel) { voice in
                    if voice.pointee.exclusiveClass == exclusiveClass && voice.pointee.age < firstAge { fade(voice) }
                }
            }
        }
    }

    private func noteOff(channel: Int, key: UInt8) {
        let sustain = channels![channel].state.sustain
        forEachVoice(channel: channel) { voice in
            if voice.pointee.key == key { noteOffVoice(voice, sustain: sustain) }
        }
    }

    private func noteOffVoice(_ voice: UnsafeMutablePointer<SoundFontVoice>, sustain: Bool) {
        guard !voice.pointee.isReleased, !voice.pointee.isSustained else { return }
        if sustain {
            voice.pointee.isSustained = true
        } else {
            voice.pointee.release()
        }
    }

    /// Every sounding voice of the channel re-reads its modulated generators.
    func updateVoices(channel: Int) {
        let pressures = keyPressures! + 128 * channel
        let offsets = offsets.row(channel: channel)
        forEachVoice(channel: channel) { voice in
            var inputs = modulationInputs(channel: channel, key: voice.pointee.key, velocity: voice.pointee.velocity)
            inputs.polyPressure = pressures[Int(voice.pointee.key)]
            voice.pointee.updateModulated(map: map, generators: generators!, offsets: offsets, inputs: inputs)
        }
    }

    private func modulationInputs(channel: Int, key: UInt8, velocity: UInt8) -> ModulationInputs {
        let state = channels![channel]
        return ModulationInputs(controllers: UnsafePointer(controllers! + 128 * channel), key: key, velocity: velocity,
                                polyPressure: keyPressures![128 * channel + Int(key)], channelPressure: state.pressure,
                                pitchWheel: state.pitchWheel, bendRange: state.state.bendRange)
    }

    /// Calls `body` for each active voice of `channel`.
    @inline(__always)
    func forEachVoice(channel: Int, _ body: (UnsafeMutablePointer<SoundFontVoice>) -> Void) {
        let voices = voices!
        for slot in 0..<voiceCapacity where voices[slot].isActive && Int(voices[slot].channel) == channel {
            body(voices + slot)
        }
    }
}
