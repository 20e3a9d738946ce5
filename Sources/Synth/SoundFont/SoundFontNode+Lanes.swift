import VoiceLanes

extension SoundFontNode {
    /// A voice renders in lanes only for runs at least this long (shorter ones cost more
    /// in setting the lanes up than they save).
    static let shortestLaneRun = 8

    /// Renders the voices at `group` (1…`laneWidth`) in step, span by span between their ticks
    /// (shared by all voices, `gridPhase`).
    /// - Thread: render.
    func renderGroup(_ group: UnsafeMutablePointer<Int>, lanes: Int, output: VoiceOutput, count: Int) {
        let voices = voices!, centibels = centibelTable
        var done = 0
        while done < count {
            var span = count - done
            for lane in 0..<lanes where voices[group[lane]].isActive {
                if voices[group[lane]].tickFramesLeft == 0 { voices[group[lane]].tick(sampleRate: sampleRate, centibels: centibels) }
                if voices[group[lane]].isActive { span = min(span, voices[group[lane]].tickFramesLeft) }
            }
            renderSpan(group, lanes: lanes, output: output.advanced(by: done), count: span)
            for lane in 0..<lanes where voices[group[lane]].isActive {
                voices[group[lane]].tickFramesLeft -= span
                voices[group[lane]].elapsed += span
            }
            done += span
        }
    }

    /// One span with no tick inside, in pieces: the voices that can go on in lanes do (at
    /// least two), a voice at its loop's wrap renders the few frames across it alone and
    /// then joins again, a fading or ending voice renders alone.
    private func renderSpan(_ group: UnsafeMutablePointer<Int>, lanes: Int, output: VoiceOutput, count: Int) {
        let voices = voices!, together = laneSlots!
        var done = 0
        while done < count {
            let remaining = count - done
            var piece = remaining, inLanes = 0, laneMask = 0
            for lane in 0..<lanes where voices[group[lane]].isActive {
                let run = SoundFontVoiceLanes.run(voices[group[lane]], within: remaining)
                if run >= Self.shortestLaneRun {
                    piece = min(piece, run)
                    laneMask |= 1 << lane
                } else {
                    piece = min(piece, SoundFontVoiceLanes.framesAlone(voices[group[lane]], within: remaining))
                }
            }
            for lane in 0..<lanes where laneMask & (1 << lane) != 0 {
                together[inLanes] = group[lane]
                inLanes += 1
            }
            if inLanes >= 2 {
                SoundFontVoiceLanes.render(voices, slots: together, count: inLanes, copies: laneCopies!, frames: map.frames,
                                           output: output.advanced(by: done), frameCount: piece, scratch: laneValues!)
            } else {
                laneMask = 0
            }
            for lane in 0..<lanes where voices[group[lane]].isActive && laneMask & (1 << lane) == 0 {
                voices[group[lane]].renderFrames(CubicInterpolator.self, output.advanced(by: done), piece, reach: (1, 2))
            }
            done += piece
        }
    }
}
