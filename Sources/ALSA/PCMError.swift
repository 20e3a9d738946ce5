/// Why a PCM device (or the JACK server, when the hub plays into JACK) could not be
/// opened, configured or written.
///
/// Each case reads as one line that names the device, the failing ALSA call with
/// its `snd_strerror` text (from ``ALSAError``), and the fix. On the render thread
/// only ``PCMDevice/write(frames:)`` and ``PCMDevice/drain()`` throw, and only
/// when playback has to end: building the error may allocate, the loop stops there.
public enum PCMError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No PCM of that name: not in the ALSA configuration, or no such card.
    case unknownDevice(name: String, cause: ALSAError)
    /// The device exists but another program holds it.
    case deviceBusy(name: String, cause: ALSAError)
    /// The device went away while playing (unplugged, driver unbound): playback ends.
    case deviceGone(name: String, cause: ALSAError)
    /// Writing failed for another reason (e.g. the driver stopped answering: EIO); playback ends.
    case playbackFailed(name: String, cause: ALSAError)
    /// Capturing from an input device failed (unplugged, driver error): the input is silent
    /// until it can be opened again.
    case captureFailed(name: String, cause: ALSAError)
    /// The device refuses a setting midihub needs, such as the channel count.
    case unsupportedSetting(name: String, setting: String, cause: ALSAError)
    /// The device offers none of the sample formats midihub can write.
    case noSupportedFormat(name: String, tried: [PCMSampleFormat])
    /// A requested option is outside what midihub supports.
    case invalidOption(String)
    /// A sample format name that is not one of ``PCMSampleFormat``.
    case unknownSampleFormat(String)
    /// Any other failing ALSA call.
    case alsa(ALSAError)
    /// No JACK client could be opened: `reason` says why (no server running, refused).
    case jackUnavailable(reason: String)
    /// The JACK server stopped, or shut midihub's client down, while it played.
    case jackStopped(reason: String)

    public var description: String {
        switch self {
        case let .unknownDevice(name, cause):
            "no audio device '\(name)' (\(Self.text(cause))); choose one with --device "
                + "(`aplay -L` lists them), or write a WAV file with `midihub render` when there is no sound card"
        case let .deviceBusy(name, cause):
            "audio device '\(name)' is busy (\(Self.text(cause))); close the program using it, "
                + "or play through 'default' which can share the card"
        case let .deviceGone(name, cause):
            "audio device '\(name)' is gone (\(Self.text(cause))); playback stopped, "
                + "reconnect it or choose another with --device"
        case let .playbackFailed(name, cause):
            "playback to audio device '\(name)' failed (\(Self.text(cause))); playback stopped, "
                + "try a larger buffer size or another --device"
        case let .captureFailed(name, cause):
            "capture from audio device '\(name)' failed (\(Self.text(cause))); the input is silent "
                + "until it answers again, reconnect it or choose another (`arecord -L` lists them)"
        case let .unsupportedSetting(name, setting, cause):
            "audio device '\(name)' does not accept \(setting) (\(Self.text(cause))); "
                + "use a 'plughw:' or 'default' device, which converts"
        case let .noSupportedFormat(name, tried):
            "audio device '\(name)' offers none of the sample formats "
                + tried.map(\.alsaName).joined(separator: ", ")
                + "; use a 'plughw:' or 'default' device, which converts"
        case let .invalidOption(message):
            message
        case let .unknownSampleFormat(name):
            "unknown sample format '\(name)'; use one of "
                + PCMSampleFormat.preferenceOrder.map(\.alsaName).joined(separator: ", ")
                + " (or s16, s24, s32, float)"
        case let .alsa(cause):
            cause.description
        case let .jackUnavailable(reason):
            "no JACK audio: \(reason) (fix: start jackd or your session manager, or serve with --audio alsa)"
        case let .jackStopped(reason):
            "the JACK server stopped or dropped midihub (\(reason)); MIDI goes on, the sound comes back when a server runs again"
        }
    }

    /// `snd_pcm_open: No such file or directory`.
    private static func text(_ cause: ALSAError) -> String {
        "\(cause.function): \(cause.message)"
    }
}
