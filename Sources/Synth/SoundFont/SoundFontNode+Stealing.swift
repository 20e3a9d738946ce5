/// - Thread: render.
extension SoundFontNode {
    /// A slot for a new voice. At the voice limit the oldest released voice (else the oldest)
    /// starts its short fade; with every slot busy, the oldest fading voice (else the oldest)
    /// is cut and its slot reused.
    /// - Thread: render.
    func takeVoice() -> Int {
        let voices = voices!
        while soundingCount >= voiceLimit, let victim = oldestVoice(where: { !$0.isFading }, preferReleased: true) {
            fade(voices + victim)
        }
        for slot in 0..<voiceCapacity where !voices[slot].isActive { return slot }
        let victim = oldestVoice(where: { $0.isFading }, preferReleased: false)
            ?? oldestVoice(where: { _ in true }, preferReleased: false)!
        if !voices[victim].isFading { soundingCount -= 1 }
        voices[victim].isActive = false
        activeCount -= 1
        return victim
    }

    /// Starts the short fade of a stolen or silenced voice.
    func fade(_ voice: UnsafeMutablePointer<SoundFontVoice>) {
        guard !voice.pointee.isFading else { return }
        voice.pointee.fade(frames: fadeFrames)
        soundingCount -= 1
    }

    /// The slot of the oldest active voice matching `include`, released ones first when asked.
    private func oldestVoice(where include: (SoundFontVoice) -> Bool, preferReleased: Bool) -> Int? {
        let voices = voices!
        var best = -1, bestReleased = -1
        for slot in 0..<voiceCapacity where voices[slot].isActive && include(voices[slot]) {
            if best < 0 || voices[slot].age < voices[best].age { best = slot }
            if voices[slot].isReleased && (bestReleased < 0 || voices[slot].age < voices[bestReleased].age) { bestReleased = slot }
        }
        let slot = preferReleased && bestReleased >= 0 ? bestReleased : best
        return slot >= 0 ? slot : nil
    }
}
