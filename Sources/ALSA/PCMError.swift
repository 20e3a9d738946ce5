internal import CALSA

/// Why a PCM device could not be opened, configured or written.
///
/// Each case reads as one line that names the device, the failing ALSA call with
/// its `snd_strerror` text, and the fix. Thrown on the render thread only by
/// ``PCMDevice/write(frames:)`` and ``PCMDevice/drain()``, without allocating:
/// payloads are the device name (already stored), static strings and codes.
///
/// Note for the merge with `ALSAError`: ``call(function:code:)`` is the generic
/// "a C call failed" case and maps onto `ALSAError` (function name, code, text).
public enum PCMError: Error, CustomStringConvertible {
    /// No PCM of that name: not in the ALSA configuration, or no such card.
    case unknownDevice(name: String, code: Int32)
    /// The device exists but another program holds it.
    case deviceBusy(name: String, code: Int32)
    /// The device went away while playing (unplugged, driver unbound): playback ends.
    case deviceGone(name: String, function: StaticString, code: Int32)
    /// The device refuses a setting midihub needs, such as the channel count.
    case unsupportedSetting(name: String, setting: String, function: StaticString, code: Int32)
    /// The device offers none of the sample formats midihub can write.
    case noSupportedFormat(name: String, tried: [PCMSampleFormat])
    /// A requested option is outside what midihub supports.
    case invalidOption(String)
    /// A sample format name that is not one of ``PCMSampleFormat``.
    case unknownSampleFormat(String)
    /// Any other failing ALSA call.
    case call(function: StaticString, code: Int32)

    public var description: String {
        switch self {
        case let .unknownDevice(name, code):
            "no audio device '\(name)' (snd_pcm_open: \(Self.text(code))); choose one with --device "
                + "(`aplay -L` lists them), or write a WAV file with `midihub render` when there is no sound card"
        case let .deviceBusy(name, code):
            "audio device '\(name)' is busy (snd_pcm_open: \(Self.text(code))); close the program using it, "
                + "or play through 'default' which can share the card"
        case let .deviceGone(name, function, code):
            "audio device '\(name)' is gone (\(function): \(Self.text(code))); playback stopped, "
                + "reconnect it or choose another with --device"
        case let .unsupportedSetting(name, setting, function, code):
            "audio device '\(name)' does not accept \(setting) (\(function): \(Self.text(code))); "
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
        case let .call(function, code):
            "\(function) failed: \(Self.text(code))"
        }
    }

    /// `snd_strerror` text of a negative ALSA or errno code.
    private static func text(_ code: Int32) -> String {
        String(cString: snd_strerror(code))
    }
}
