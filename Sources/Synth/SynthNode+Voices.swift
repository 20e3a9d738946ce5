import RenderCore

/// - Thread: render.
extension SynthNode {
    /// Renders every active voice for `count` frames at `start`, in control periods and
    /// in groups of `VoiceGroup.width`; frees voices that have finished.
    /// - Thread: render.
    func renderVoices(into bus: AudioBus, start: Int, count: Int) {
        let voices = voices!, active = activeVoices!, channels = channels!
        let context = VoiceRenderContext(sampleRate: sampleRate, inverseSampleRate: 1 / sampleRate,
                                         maxCutoff: 0.45 * sampleRate, loops: loops)
        let mixLeft = laneMix!, mixRight = laneMix! + Self.controlInterval
        var offset = start
        let end = start + count
        while offset < end {
            let n = min(end - offset, Self.controlInterval)
            // The knobs for this period: gliding toward where they were set while notes
            // sound, there at once when none does.
            if activeCount == 0 { knobs.settle() }
            shaping = knobs.shaping(advancing: n, secondsPerBeat: secondsPerBeat)
            mixLeft.update(repeating: .zero, count: 2 * Self.controlInterval)
            var first = 0
            while first < activeCount {
                VoiceGroup.render(voices: voices, slots: active + first, count: min(VoiceGroup.width, activeCount - first),
                                  channels: channels, shaping: shaping, frames: n, context: context, signal: scratch!,
                                  columnStride: Self.controlInterval, lanes: laneFields!,
                                  mixLeft: mixLeft, mixRight: mixRight)
                first += VoiceGroup.width
            }
            if activeCount > 0 {
                sumLanes(mixLeft, into: bus.left + offset, count: n)
                sumLanes(mixRight, into: bus.right + offset, count: n)
            }
            // Backwards, so the voice `finishVoice` moves into a freed index was already checked.
            for index in stride(from: activeCount - 1, through: 0, by: -1) where voices[Int(active[index])].amp.isFinished {
                finishVoice(at: index)
            }
            offset += n
        }
    }

    /// Adds the sum of each frame's lanes into `output`.
    private func sumLanes(_ lanes: UnsafeMutablePointer<VoiceGroup.Lanes>, into output: UnsafeMutablePointer<Float>, count: Int) {
        for i in 0..<count {
            let half = lanes[i].lowHalf + lanes[i].highHalf
            let quarter = half.lowHalf + half.highHalf
            output[i] += quarter[0] + quarter[1]
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
