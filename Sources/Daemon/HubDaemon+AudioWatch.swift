import AudioHost

/// What the render thread cannot say itself: that it left realtime priority because it
/// cannot keep up, or that it ended because the device failed. Checked by the MIDI input
/// thread on each round; a failed device is opened again at once (the synth keeps its
/// voices), then every `audioRetrySeconds` while it cannot be.
extension HubDaemon {
    /// How long to wait before opening the device again after a failed attempt.
    static let audioRetrySeconds = 5.0

    /// - Thread: input (the owner).
    func watchAudio() {
        guard let audio else { return }
        if audio.driver.realtimeDropped, !audio.reportedRealtimeDrop {
            audio.reportedRealtimeDrop = true
            log.warning(audio.driver.realtimeDroppedWarning)
        }
        guard !audio.driver.isRunning else { return }
        if let due = audioRetryDue {
            guard Self.now() >= due else { return }
        } else {
            let cause = audio.driver.failure.map(\.description) ?? "the render thread ended"
            log.error("audio stopped: \(cause); opening the device again")
        }
        do {
            if let warning = try audio.reopen() { log.warning(warning) }
            audioRetryDue = nil
            log.info("audio: playing to \(audio.driver.settings)")
        } catch {
            audioRetryDue = Self.now() + Self.audioRetrySeconds
            log.warning("cannot open the audio device again: \(error); retrying in \(Int(Self.audioRetrySeconds)) s")
        }
    }
}
