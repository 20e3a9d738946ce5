import RenderCore

extension SynthNode {
    /// Renders every active voice for `count` frames at `start`, in control periods;
    /// frees voices that have finished.
    /// - Thread: render.
    func renderVoices(into bus: AudioBus, start: Int, count: Int) {
        let voices = voices!, active = activeVoices!, channels = channels!
        let context = VoiceRenderContext(sampleRate: sampleRate, inverseSampleRate: 1 / sampleRate,
                                         maxCutoff: 0.45 * sampleRate, signal: scratch!,
                                         envelope: scratch! + Self.controlInterval)
        var offset = start
        let end = start + count
        while offset < end {
            let n = min(end - offset, Self.controlInterval)
            let left = bus.left + offset, right = bus.right + offset
            var i = 0
            while i < activeCount {
                let slot = Int(active[i])
                let channel = channels[Int(voices[slot].channel)]
                let modulation = ChannelModulation(bendSemitones: channel.bendSemitones, wheel: channel.wheel,
                                                   gain: channel.gain, pan: channel.pan)
                if voices[slot].render(count: n, left: left, right: right, modulation: modulation, context: context) {
                    i += 1
                } else {
                    finishVoice(at: i)
                }
            }
            offset += n
        }
    }

    /// Starts the short fade of a stolen or silenced voice.
    func fade(_ voice: UnsafeMutablePointer<Voice>) {
        guard !voice.pointee.isFading else { return }
        voice.pointee.fade(frames: fadeFrames)
        soundingCount -= 1
    }

    /// The voice to steal: the oldest released one, else the oldest; fading voices are
    /// skipped. Returns its slot.
    func stealCandidate() -> Int32? {
        let voices = voices!, active = activeVoices!
        var oldestReleased: Int32 = -1, oldest: Int32 = -1
        var releasedAge = UInt64.max, age = UInt64.max
        for i in 0..<activeCount {
            let slot = active[i]
            let voice = voices[Int(slot)]
            if voice.isFading { continue }
            if voice.isReleased && voice.age < releasedAge { releasedAge = voice.age; oldestReleased = slot }
            if voice.age < age { age = voice.age; oldest = slot }
        }
        let slot = oldestReleased >= 0 ? oldestReleased : oldest
        return slot >= 0 ? slot : nil
    }

    /// A free voice slot; when none is left, the oldest fading voice is cut and reused.
    func takeFreeSlot() -> Int32 {
        if freeCount > 0 {
            freeCount -= 1
            return freeVoices![freeCount]
        }
        let voices = voices!, active = activeVoices!
        var victim = 0
        for i in 0..<activeCount where voices[Int(active[i])].isFading {
            if !voices[Int(active[victim])].isFading || voices[Int(active[i])].age < voices[Int(active[victim])].age {
                victim = i
            }
        }
        finishVoice(at: victim)
        freeCount -= 1
        return freeVoices![freeCount]
    }

    /// Removes the voice at `index` of the active list and returns its slot to the free list.
    private func finishVoice(at index: Int) {
        let active = activeVoices!
        let slot = active[index]
        if !voices![Int(slot)].isFading { soundingCount -= 1 }
        activeCount -= 1
        active[index] = active[activeCount]
        freeVoices![freeCount] = slot
        freeCount += 1
    }
}
