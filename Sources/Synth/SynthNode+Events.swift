import RenderCore

/// - Thread: render.
extension SynthNode {
    /// Applies one event at the current frame.
    /// - Thread: render.
    func apply(_ event: RenderEvent) {
        let channel = Int(event.channel & 15)
        switch event.kind {
        case .noteOn:
            if event.data2 == 0 {
                noteOff(channel: channel, note: event.data1)
            } else {
                noteOn(channel: channel, note: event.data1 & 127, velocity: min(event.data2, 127))
            }
        case .noteOff:
            noteOff(channel: channel, note: event.data1)
        case .controlChange:
            controlChange(channel: channel, controller: event.data1, value: min(event.data2, 127))
        case .programChange:
            channels![channel].program = Int(event.data1 & 127)
        case .pitchBend:
            channels![channel].bend = max(-1, (Float(min(event.bend, 16383)) - 8192) / 8192)
        case .parameter:
            setParameter(event)
        case .polyPressure, .channelPressure:
            break
        }
    }

    private func setParameter(_ event: RenderEvent) {
        guard let parameter = Parameter(rawValue: event.parameter), event.value.isFinite else { return }
        let info = parameters[Int(parameter.rawValue)]
        switch parameter {
        case .masterGain: masterGain.set(decibelsToGain(info.clamp(event.value)))
        case .voiceLimit: voiceLimit = Int(info.clamp(event.value))
        default:
            // The knobs: smoothed in `renderVoices`; the ones notes read when they start or
            // end take effect at once.
            knobs.apply(event)
            knobs.takeTargets(into: &shaping)
        }
    }

    private func controlChange(channel: Int, controller: UInt8, value: UInt8) {
        if channels![channel].applyController(controller, value) { return }
        switch controller {
        case 64:
            let down = value >= 64
            channels![channel].sustain = down
            if !down { releaseSustained(channel: channel) }
        case 120:
            forEachVoice(channel: channel) { voice in if !voice.pointee.isFading { fade(voice) } }
        case 121:
            channels![channel].resetControllers()
            releaseSustained(channel: channel)
        case 123:
            forEachVoice(channel: channel) { voice in noteOffVoice(voice, sustain: channels![channel].sustain) }
        default:
            break
        }
    }

    private func noteOn(channel: Int, note: UInt8, velocity: UInt8) {
        let isDrum = channel == 9
        let index = isDrum ? drumTimbre![Int(note)] : programTimbre![channels![channel].program]
        guard index >= 0 else { return }
        let timbre = timbres![Int(index)]
        if isDrum && timbre.chokeGroup > 0 {
            forEachVoice(channel: channel) { voice in
                if voice.pointee.timbre.chokeGroup == timbre.chokeGroup && !voice.pointee.isFading { fade(voice) }
            }
        }
        while soundingCount >= voiceLimit, let victim = stealCandidate() {
            fade(voices! + Int(victim))
        }
        let slot = takeFreeSlot()
        let voice = voices! + Int(slot)
        voice.pointee.start(timbre: shaping.shaped(timbre), channel: UInt8(channel), note: note, velocity: velocity,
                            age: nextAge, sampleRate: sampleRate)
        if !isDrum {
            let previous = channels![channel].lastPitch
            if shaping.glide > 0 && previous >= 0 {
                voice.pointee.startGlide(from: previous, seconds: shaping.glide, sampleRate: sampleRate)
            }
            channels![channel].lastPitch = voice.pointee.pitch
        }
        nextAge &+= 1
        activeVoices![activeCount] = slot
        activeCount += 1
        soundingCount += 1
    }

    private func noteOff(channel: Int, note: UInt8) {
        let sustain = channels![channel].sustain
        forEachVoice(channel: channel) { voice in
            if voice.pointee.note == note { noteOffVoice(voice, sustain: sustain) }
        }
    }

    private func noteOffVoice(_ voice: UnsafeMutablePointer<Voice>, sustain: Bool) {
        guard !voice.pointee.isReleased, !voice.pointee.isSustained, !voice.pointee.timbre.ignoresNoteOff else { return }
        if sustain {
            voice.pointee.isSustained = true
        } else {
            release(voice)
        }
    }

    private func releaseSustained(channel: Int) {
        forEachVoice(channel: channel) { voice in
            if voice.pointee.isSustained { release(voice) }
        }
    }

    /// Releases a voice with the release times the knobs give now.
    private func release(_ voice: UnsafeMutablePointer<Voice>) {
        let scales = shaping.releaseScales
        voice.pointee.release(ampScale: scales.amp, filterScale: scales.filter, sampleRate: sampleRate)
    }

    /// Calls `body` for each active voice of `channel`.
    @inline(__always)
    func forEachVoice(channel: Int, _ body: (UnsafeMutablePointer<Voice>) -> Void) {
        let voices = voices!, active = activeVoices!
        for i in 0..<activeCount {
            let voice = voices + Int(active[i])
            if Int(voice.pointee.channel) == channel { body(voice) }
        }
    }
}
