import AudioHost

/// What the render thread cannot say itself: that it left realtime priority because it
/// cannot keep up, or that it ended because the device failed. Checked by the MIDI input
/// thread on each round; a failed device is closed and opened again (at once, then every
/// `audioRetrySeconds` while it cannot be).
extension HubDaemon {
    /// How long to wait before opening the device again after a failed attempt.
    static let audioRetrySeconds = 5.0

    /// - Thread: input, under the lock.
    func watchAudio() {
        guard let audio else {
            guard let due = audioRetryDue, Self.now() >= due else { return }
            audioRetryDue = nil
            reopenAudio()
            return
        }
        if audio.driver.realtimeDropped, !audio.reportedRealtimeDrop {
            audio.reportedRealtimeDrop = true
            log.warning(audio.driver.realtimeDroppedWarning)
        }
        guard !audio.driver.isRunning else { return }
        let cause = audio.driver.failure.map(\.description) ?? "the render thread ended"
        log.error("audio stopped: \(cause); opening the device again")
        try? audio.stop()
        self.audio = nil
        reopenAudio()
    }

    private func reopenAudio() {
        startAudioIfNeeded()
        if audio == nil { audioRetryDue = Self.now() + Self.audioRetrySeconds }
    }
}
