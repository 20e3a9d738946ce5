internal import CALSA
import Glibc

extension PCMDevice {
    /// A freshly opened, not yet configured PCM and the private configuration it
    /// was looked up in (which must live until the PCM is closed).
    struct OpenedPCM {
        var pcm: OpaquePointer
        var localConfiguration: OpaquePointer?
    }

    /// Opens `name` for blocking playback (or capture), in the system ALSA configuration or
    /// in `alsaConfiguration` text.
    /// - Thread: control
    static func open(name: String, alsaConfiguration: String?, capture: Bool = false) throws(PCMError) -> OpenedPCM {
        let stream = capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        let localConfiguration = try alsaConfiguration.map { text throws(PCMError) in try loadConfiguration(text) }
        var pcm: OpaquePointer?
        let result =
            if let localConfiguration {
                snd_pcm_open_lconf(&pcm, name, stream, 0, localConfiguration)
            } else {
                snd_pcm_open(&pcm, name, stream, 0)
            }
        guard result >= 0, let pcm else {
            if let localConfiguration { snd_config_delete(localConfiguration) }
            throw openError(name: name, code: result)
        }
        return OpenedPCM(pcm: pcm, localConfiguration: localConfiguration)
    }

    private static func openError(name: String, code: Int32) -> PCMError {
        let cause = ALSAError(function: "snd_pcm_open", code: code)
        return switch -code {
        // snd_pcm_open answers EINVAL for a card index past the last one ("hw:97,0").
        case ENOENT, ENODEV, ENXIO, EINVAL: .unknownDevice(name: name, cause: cause)
        case EBUSY: .deviceBusy(name: name, cause: cause)
        default: .alsa(cause)
        }
    }

    /// Parses ALSA configuration text (asoundrc syntax) into a configuration tree.
    private static func loadConfiguration(_ text: String) throws(PCMError) -> OpaquePointer {
        var top: OpaquePointer?
        var result = snd_config_top(&top)
        guard result >= 0, let top else { throw .alsa(ALSAError(function: "snd_config_top", code: result)) }
        var input: OpaquePointer?
        let bytes = Array(text.utf8)
        result = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { snd_input_buffer_open(&input, $0.baseAddress, $0.count) }
        }
        guard result >= 0, let input else {
            snd_config_delete(top)
            throw .alsa(ALSAError(function: "snd_input_buffer_open", code: result))
        }
        result = snd_config_load(top, input)
        snd_input_close(input)
        guard result >= 0 else {
            snd_config_delete(top)
            throw .alsa(ALSAError(function: "snd_config_load", code: result))
        }
        return top
    }
}
