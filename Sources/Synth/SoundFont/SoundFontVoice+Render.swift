import SoundFont
import VoiceLanes

/// - Thread: render.
extension SoundFontVoice {
    /// Adds `count` frames of the voice into `output`, ticking its envelopes and LFOs every
    /// `tickFrames` frames of its own. Ends the voice when its envelope, sample or fade ends.
    /// - Thread: render.
    mutating func render(_ output: VoiceOutput, count: Int, interpolation: SampleInterpolation, sampleRate: Float) {
        var done = 0
        while done < count && isActive {
            if tickFramesLeft == 0 {
                tick(sampleRate: sampleRate)
                guard isActive else { return }
            }
            let n = min(count - done, tickFramesLeft)
            switch interpolation {
            case .linear: renderFrames(LinearInterpolator.self, output.advanced(by: done), n, reach: interpolation.reach)
            case .cubic: renderFrames(CubicInterpolator.self, output.advanced(by: done), n, reach: interpolation.reach)
            case .sixPoint: renderFrames(SixPointInterpolator.self, output.advanced(by: done), n, reach: interpolation.reach)
            }
            tickFramesLeft -= n
            elapsed += n
            done += n
        }
    }

    /// One control tick: envelopes and LFOs step; the amplitude target, the pitch increment
    /// and the filter cutoff for the next `tickFrames` frames follow from them. `centibels`:
    /// `CentibelTable.amplitudes`.
    mutating func tick(sampleRate: Float, centibels: UnsafePointer<Float> = CentibelTable.amplitudes) {
        tickFramesLeft = Self.tickFrames
        volumeEnvelope.step()
        guard volumeEnvelope.section != .finished else { isActive = false; return }
        modulationEnvelope.step()
        modulationLFO.step(elapsed: elapsed)
        vibratoLFO.step(elapsed: elapsed)

        let lfoVolume = modulationLFO.value * -modLFOToVolume
        let target: Float
        switch volumeEnvelope.section {
        case .delay:
            target = 0
        case .attack:
            target = attenuationGain * (lfoVolume == 0 ? 1 : centibelsToAmplitude(lfoVolume, table: centibels)) * volumeEnvelope.value
        default:
            // Silent for good once even the loudest the envelope can still reach is below the floor.
            guard attenuationGain * volumeEnvelope.value >= Self.noiseFloor else { isActive = false; return }
            target = centibelsToAmplitude(attenuation + 960 * (1 - volumeEnvelope.value) + lfoVolume, table: centibels)
        }
        amplitudeStep = (target - amplitude) / Float(Self.tickFrames)

        let modulation = modulationEnvelope.section == .attack ? Modulation.convexCurve(127 * modulationEnvelope.value)
            : modulationEnvelope.value
        let cents = pitch + Double(modulationLFO.value * modLFOToPitch + vibratoLFO.value * vibratoLFOToPitch
            + modulation * modEnvelopeToPitch)
        // Whole cents, as FluidSynth's cents-to-hertz table plays them (it truncates).
        let playedCents = cents > 0 ? Double(Int64(cents)) : cents  // truncated without libm's trunc
        if playedCents != incrementCents {
            incrementCents = playedCents
            increment = Double(exp2Fast(Float(playedCents - rootPitch) / 1200) * rateRatio)
        }
        // Clamped after the modulations, as FluidSynth's cents-to-hertz does (20 Hz…19.9 kHz).
        let cutoff = min(max(cutoffCents + modulationLFO.value * modLFOToCutoff + modulation * modEnvelopeToCutoff,
                             1_500), 13_500)
        if cutoff != filterCents {
            filterCents = cutoff
            filter.setCutoff(8.175_799 * exp2Fast(cutoff / 1200), sampleRate: sampleRate)
        }
        filter.flushDenormals()
    }

    /// FluidSynth's noise floor: below it a voice that can only get quieter is ended.
    static let noiseFloor: Float = 2e-7

    /// The inner loop: interpolate, filter, apply amplitude, fade and pan, advance. Runs of
    /// frames whose interpolation points all lie inside the sample (the common case) go
    /// through `renderRun` with no edge, loop or fade checks; frames near an edge, a loop
    /// wrap or a fading voice go one at a time.
    @inline(__always)
    mutating func renderFrames<Formula: Interpolator>(_ formula: Formula.Type, _ output: VoiceOutput, _ count: Int,
                                                      reach: (before: Int, after: Int)) {
        guard let frames else { isActive = false; return }
        let looping = isLooping
        let limit = looping ? loopEnd : end
        let loopLength = Double(loopEnd - loopStart)
        let edge = EdgeFrames(frames: frames, first: start, last: end - 1, loopStart: loopStart, loopEnd: loopEnd, looping: looping)
        let safeLow = start + reach.before, safeHigh = limit - reach.after
        var i = 0
        while i < count {
            let index = Int(position)
            if !isFading && index >= safeLow && index < safeHigh {
                // Frames k with Int(position + k × increment) < safeHigh.
                let room = (Double(safeHigh) - position) / increment
                let run = min(count - i, max(1, Int(room.rounded(.up)) - 1))
                renderRun(Formula.self, DirectFrames(frames: frames), output.advanced(by: i), run)
                i += run
                continue
            }
            let fraction = Float(position - Double(index))
            var sample = Formula.value(edge, index, fraction)
            sample = filter.isBypassed ? sample * filter.gain : filter.process(sample)
            amplitude += amplitudeStep
            if isFading { fadeGain -= fadeStep }
            let value = sample * amplitude * fadeGain
            output.add(value, at: i, panLeft: panLeft, panRight: panRight, reverb: reverbSend, chorus: chorusSend)
            position += increment
            i += 1
            if position >= Double(limit) {
                guard looping else { isActive = false; return }
                position -= loopLength
            }
            if fadeGain <= 0 { isActive = false; return }
        }
    }

    /// `count` frames that read only inside the sample: no checks in the loop.
    @inline(__always)
    private mutating func renderRun<Formula: Interpolator>(_ formula: Formula.Type, _ source: DirectFrames,
                                                           _ output: VoiceOutput, _ count: Int) {
        var position = position, amplitude = amplitude
        let increment = increment, step = amplitudeStep
        let panLeft = panLeft * fadeGain, panRight = panRight * fadeGain
        let reverb = reverbSend * fadeGain, chorus = chorusSend * fadeGain
        if filter.isBypassed {
            let gain = filter.gain
            for i in 0..<count {
                let index = Int(position)
                amplitude += step
                let value = Formula.value(source, index, Float(position - Double(index))) * amplitude * gain
                output.add(value, at: i, panLeft: panLeft, panRight: panRight, reverb: reverb, chorus: chorus)
                position += increment
            }
        } else {
            var filter = filter
            for i in 0..<count {
                let index = Int(position)
                amplitude += step
                let value = filter.process(Formula.value(source, index, Float(position - Double(index)))) * amplitude
                output.add(value, at: i, panLeft: panLeft, panRight: panRight, reverb: reverb, chorus: chorus)
                position += increment
            }
            self.filter = filter
        }
        self.position = position
        self.amplitude = amplitude
    }
}
