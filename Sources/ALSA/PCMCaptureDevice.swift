internal import CALSA
import Glibc

/// An open ALSA capture device (a sound card's input, a loopback's capture side) that
/// reads interleaved periods and hands them over as `Float` samples.
///
/// Lifecycle: open on the thread that will read (this allocates the conversion buffer),
/// call ``read(into:timeoutMilliseconds:)`` in a loop, ``close()`` at the end. One thread
/// at a time.
public final class PCMCaptureDevice: @unchecked Sendable {
    /// What the device accepted (rate, channels, period).
    public let settings: PCMSettings
    /// Overruns recovered so far (counted as underruns: the device ring went past its end).
    public let statistics = PCMStatistics()

    private var handle: OpaquePointer?
    private var localConfiguration: OpaquePointer?
    private let conversionBuffer: UnsafeMutableRawPointer

    /// Opens the capture device `name` (`hw:1,0`, `plughw:CARD=USB`, `default`, …) with
    /// `configuration`'s rate and period, in stereo or, when it has only one, in mono.
    /// - Throws: ``PCMError`` naming the device and the fix.
    /// - Thread: capture (the thread that reads)
    public init(name: String, configuration: PCMConfiguration, alsaConfiguration: String? = nil) throws(PCMError) {
        try configuration.validate()
        var lastError: PCMError?
        for channels in [configuration.channels, 1] {
            var tried = configuration
            tried.channels = channels
            let opened = try PCMDevice.open(name: name, alsaConfiguration: alsaConfiguration, capture: true)
            do {
                settings = try PCMDevice.negotiate(opened.pcm, name: name, configuration: tried, capture: true)
                handle = opened.pcm
                localConfiguration = opened.localConfiguration
                conversionBuffer = .allocate(byteCount: settings.periodFrames * settings.bytesPerFrame, alignment: 16)
                return
            } catch {
                snd_pcm_close(opened.pcm)
                if let config = opened.localConfiguration { snd_config_delete(config) }
                lastError = error
            }
        }
        throw lastError ?? .alsa(ALSAError(function: "snd_pcm_open", code: -EINVAL))
    }

    deinit {
        close()
        conversionBuffer.deallocate()
    }

    /// Waits up to `timeoutMilliseconds` for a period, reads it and converts it into
    /// `destination` (interleaved, `settings.channels` per frame, room for a period).
    /// Overruns are recovered and counted.
    /// - Returns: the frames read (0 when nothing came in time).
    /// - Throws: ``PCMError/captureFailed(name:cause:)`` when the device is gone or fails.
    /// - Thread: capture
    public func read(into destination: UnsafeMutablePointer<Float>, timeoutMilliseconds: Int32) throws(PCMError) -> Int {
        guard let pcm = handle else { throw .captureFailed(name: settings.deviceName, cause: ALSAError(function: "read", code: -EBADFD)) }
        if snd_pcm_state(pcm) == SND_PCM_STATE_PREPARED {
            let started = snd_pcm_start(pcm)
            if started < 0 { throw failure(started, in: "snd_pcm_start") }
        }
        let ready = snd_pcm_wait(pcm, timeoutMilliseconds)
        if ready == 0 { return 0 }
        if ready < 0 {
            try recover(ready)
            return 0
        }
        let result = snd_pcm_readi(pcm, conversionBuffer, snd_pcm_uframes_t(settings.periodFrames))
        guard result > 0 else {
            if result < 0 { try recover(Int32(result)) }
            return 0
        }
        settings.format.decode(conversionBuffer, count: Int(result) * settings.channels, into: destination)
        return Int(result)
    }

    /// Stops capturing and releases the device. Calling it again does nothing.
    /// - Thread: capture
    public func close() {
        if let pcm = handle { snd_pcm_close(pcm) }
        if let config = localConfiguration { snd_config_delete(config) }
        handle = nil
        localConfiguration = nil
    }

    private func recover(_ code: Int32) throws(PCMError) {
        guard let pcm = handle else { return }
        switch -code {
        case EAGAIN, EINTR:
            return
        case EPIPE, ESTRPIPE:
            statistics.recordUnderrun()
            let result = snd_pcm_prepare(pcm)
            if result < 0 { throw failure(result, in: "snd_pcm_prepare") }
        default:
            throw failure(code, in: "snd_pcm_readi")
        }
    }

    private func failure(_ code: Int32, in function: String) -> PCMError {
        .captureFailed(name: settings.deviceName, cause: ALSAError(function: function, code: code))
    }
}
