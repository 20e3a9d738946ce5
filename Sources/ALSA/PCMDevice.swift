internal import CALSA
import Glibc

/// An open ALSA playback device, configured for the engine's block size, that
/// takes the engine's interleaved `Float` blocks and plays them.
///
/// Lifecycle: open on the control side (this allocates the conversion buffer),
/// hand the device to the render thread, which calls ``write(frames:)`` once per
/// block — the blocking write is the render clock — then ``drain()`` at the end;
/// ``close()`` after the render thread has stopped. One thread at a time: the
/// device is `Sendable` only so it can be handed over, never shared.
/// ``statistics`` is the one part meant to be read concurrently.
public final class PCMDevice: @unchecked Sendable {
    /// What the device accepted; render with these values.
    public let settings: PCMSettings
    /// Underrun and resume counters, readable from the control side while playing.
    public let statistics: PCMStatistics

    private var handle: OpaquePointer?
    /// The private ALSA configuration the device was opened with, kept until close.
    private var localConfiguration: OpaquePointer?
    /// Device-format bytes of one conversion chunk, allocated at open.
    private let conversionBuffer: UnsafeMutableRawPointer
    /// Interleaved samples `conversionBuffer` holds (one period's worth).
    private let conversionCapacity: Int
    /// Stalls recovered in a row without the device playing anything in between.
    private var stallsWithoutProgress = 0
    /// Frames written since the last stall.
    private var framesSinceStall = 0
    /// Stalls in a row after which the device counts as dead (about 1 s of no progress).
    private static let maximumStallsWithoutProgress = 10

    /// Opens the playback device `name` (`default`, `hw:1,0`, `plughw:CARD=USB,DEV=0`,
    /// `null`, or any PCM of the ALSA configuration) and configures it.
    ///
    /// - Parameters:
    ///   - name: the ALSA PCM name, as `aplay -L` lists them.
    ///   - configuration: the requested rate, channels, period, buffer and formats.
    ///   - alsaConfiguration: ALSA configuration text used instead of the system's
    ///     (a private asoundrc), e.g. `pcm.out { type file … }`; `nil` for the system one.
    /// - Throws: ``PCMError`` naming the device and the fix.
    /// - Thread: control
    public init(
        name: String, configuration: PCMConfiguration = PCMConfiguration(),
        alsaConfiguration: String? = nil
    ) throws(PCMError) {
        try configuration.validate()
        _ = PCMDevice.silenceLibraryMessages
        let opened = try PCMDevice.open(name: name, alsaConfiguration: alsaConfiguration)
        do {
            settings = try PCMDevice.negotiate(opened.pcm, name: name, configuration: configuration)
        } catch {
            snd_pcm_close(opened.pcm)
            if let config = opened.localConfiguration { snd_config_delete(config) }
            throw error
        }
        handle = opened.pcm
        localConfiguration = opened.localConfiguration
        statistics = PCMStatistics()
        conversionCapacity = settings.periodFrames * settings.channels
        conversionBuffer = .allocate(
            byteCount: conversionCapacity * settings.format.bytesPerSample, alignment: 16)
    }

    deinit {
        close()
        conversionBuffer.deallocate()
    }

    /// Whether ``close()`` has not been called yet.
    /// - Thread: the thread that owns the device
    public var isOpen: Bool { handle != nil }

    /// Converts one block of interleaved samples to the device format (clipping to
    /// [-1, 1]) and writes it, blocking until the device has room: this pacing is
    /// the render clock. Any block length works; it is written in period-sized
    /// chunks through the buffer allocated at open. Allocates nothing.
    ///
    /// Underruns are recovered (the stream restarts once the buffer is full again)
    /// and counted in ``statistics``; a suspended device is resumed. A stall — the kernel
    /// gave up waiting for room after max(100 ms, 1.1 × the buffer time) without the device
    /// moving (`-EIO`; a starved or emulated machine's clock can pause that long) — is
    /// recovered like an underrun and counted; ten in a row without the device playing
    /// anything in between end playback.
    ///
    /// - Parameter frames: `settings.channels` interleaved samples per frame.
    /// - Throws: ``PCMError/deviceGone(name:cause:)`` when the device disappeared,
    ///   ``PCMError/playbackFailed(name:cause:)`` when it failed otherwise: end
    ///   playback and show the error.
    /// - Thread: render
    public func write(frames interleaved: UnsafeBufferPointer<Float>) throws(PCMError) {
        guard let pcm = handle else { throw closedError }
        precondition(
            interleaved.count % settings.channels == 0,
            "PCMDevice.write: a block must hold whole frames of \(settings.channels) samples")
        var start = 0
        while start < interleaved.count {
            let end = min(start + conversionCapacity, interleaved.count)
            settings.format.encode(UnsafeBufferPointer(rebasing: interleaved[start..<end]), into: conversionBuffer)
            try writeConverted(frames: (end - start) / settings.channels, to: pcm)
            start = end
        }
    }

    /// Plays out everything written so far, blocking until the device is empty.
    /// - Throws: ``PCMError/deviceGone(name:cause:)`` or ``PCMError/playbackFailed(name:cause:)``.
    /// - Thread: render (after the last write), or control once the render thread stopped
    public func drain() throws(PCMError) {
        guard let pcm = handle else { throw closedError }
        let result = snd_pcm_drain(pcm)
        // -EPIPE: the device ran dry just before the drain, so everything has played.
        if result < 0 && result != -EPIPE { throw failure(result, in: "snd_pcm_drain", pcm) }
    }

    /// Stops playback at once (dropping what is queued) and releases the device.
    /// Calling it again does nothing.
    /// - Thread: control, after the render thread stopped writing
    public func close() {
        if let pcm = handle { snd_pcm_close(pcm) }
        if let config = localConfiguration { snd_config_delete(config) }
        handle = nil
        localConfiguration = nil
    }

    // MARK: - Writing and recovery (render thread)

    private func writeConverted(frames: Int, to pcm: OpaquePointer) throws(PCMError) {
        var written = 0
        while written < frames {
            let result = snd_pcm_writei(
                pcm, conversionBuffer + written * settings.bytesPerFrame, snd_pcm_uframes_t(frames - written))
            if result >= 0 {
                written += Int(result)
                framesSinceStall += Int(result)
            } else {
                try recover(from: Int32(result), pcm)
            }
        }
    }

    /// Brings the stream back after a failed write, or throws when it cannot be.
    private func recover(from code: Int32, _ pcm: OpaquePointer) throws(PCMError) {
        // A device that left answers as the moment has it (ENODEV; EBADFD when a stall's
        // recovery raced the unplug): the write found it gone, whatever the code.
        if snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED { throw failure(-ENODEV, in: "snd_pcm_writei", pcm) }
        switch -code {
        case EAGAIN, EINTR:
            return
        case EPIPE:
            statistics.recordUnderrun()
            let result = snd_pcm_prepare(pcm)
            if result < 0 { throw failure(result, in: "snd_pcm_prepare", pcm) }
        case EIO where snd_pcm_state(pcm) != SND_PCM_STATE_DISCONNECTED:
            // Only a full buffer fits while the device stands still: more means it played.
            stallsWithoutProgress = framesSinceStall > settings.bufferFrames ? 1 : stallsWithoutProgress + 1
            framesSinceStall = 0
            guard stallsWithoutProgress < Self.maximumStallsWithoutProgress else { throw failure(code, in: "snd_pcm_writei", pcm) }
            statistics.recordStall()
            // A stalled stream still runs, and the kernel refuses to prepare a running one
            // (EBUSY: seen on snd-aloop in the emulated VM with a 256-frame buffer): stop it first.
            _ = snd_pcm_drop(pcm)
            let result = snd_pcm_prepare(pcm)
            if snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED { throw failure(-ENODEV, in: "snd_pcm_writei", pcm) }
            if result < 0 { throw failure(result, in: "snd_pcm_prepare", pcm) }
        case ESTRPIPE:
            var result = snd_pcm_resume(pcm)
            while result == -EAGAIN {
                usleep(10_000)  // the driver is still waking up
                result = snd_pcm_resume(pcm)
            }
            if result < 0 { result = snd_pcm_prepare(pcm) }  // cannot resume: restart instead
            if result < 0 { throw failure(result, in: "snd_pcm_prepare", pcm) }
            statistics.recordResume()
        default:
            throw failure(code, in: "snd_pcm_writei", pcm)
        }
    }

    /// Classifies an unrecoverable code: the device left (unplugged, driver
    /// unbound: ENODEV, or the stream is marked disconnected), or playback failed
    /// otherwise (EIO when the driver stops answering, …).
    private func failure(_ code: Int32, in function: String, _ pcm: OpaquePointer) -> PCMError {
        let cause = ALSAError(function: function, code: code)
        let gone = code == -ENODEV || code == -ENXIO || snd_pcm_state(pcm) == SND_PCM_STATE_DISCONNECTED
        return gone
            ? .deviceGone(name: settings.deviceName, cause: cause)
            : .playbackFailed(name: settings.deviceName, cause: cause)
    }

    /// Writing or draining after ``close()``: a programming error, reported like a bad handle.
    private var closedError: PCMError {
        .alsa(ALSAError(function: "PCMDevice (closed)", code: -EBADFD))
    }

    /// alsa-lib prints its own lines for failures that `PCMError` reports; quiet
    /// them once per process.
    private static let silenceLibraryMessages: Void = midihub_pcm_silence_library_messages()
}
