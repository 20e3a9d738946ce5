import ALSA
import AudioHost
import Dispatch

/// What the render thread cannot say itself: that it left realtime priority because it
/// cannot keep up, or that it ended because the device failed. Checked by the MIDI input
/// thread on each round; a failed device is opened again at once (the synth keeps its
/// voices), then every `audioRetrySeconds` while it cannot be (a failure is logged once, and
/// again only when its cause changes). Opening a device can take
/// long (a USB card waking, a busy driver), so it runs on a worker: MIDI goes on meanwhile,
/// and the owner adopts the opened device when the worker hands it back.
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
        guard !audio.driver.isRunning, !reopeningAudio else { return }
        if let due = audioRetryDue {
            guard Self.now() >= due else { return }
        } else {
            let cause = audio.driver.failure.map(\.description) ?? "the render thread ended"
            log.error("audio stopped: \(cause); opening the device again")
        }
        audio.releaseDevice()
        reopeningAudio = true
        let device = audio.driver.settings.deviceName, options = audio.driver.options
        slowWork.enter()
        DispatchQueue.global().async { [self] in
            defer { slowWork.leave() }
            let opened = Result { () throws(PCMError) in try AudioDriver(device: device, options: options) }
            try? owner.perform { [self] in adoptReopenedAudio(opened) }
        }
    }

    /// Plays on the device the worker opened again, or schedules the next try.
    /// - Thread: owner.
    private func adoptReopenedAudio(_ opened: Result<AudioDriver, PCMError>) {
        reopeningAudio = false
        guard let audio else { return }
        do {
            if let warning = try audio.adopt(try opened.get()) { log.warning(warning) }
            audioRetryDue = nil
            lastAudioReopenFailure = nil
            log.info("audio: playing to \(audio.driver.settings)")
        } catch {
            audioRetryDue = Self.now() + Self.audioRetrySeconds
            let failure = "\(error)"
            guard failure != lastAudioReopenFailure else { return }
            lastAudioReopenFailure = failure
            log.warning("cannot open the audio device again: \(failure); retrying every \(Int(Self.audioRetrySeconds)) s")
        }
    }
}
