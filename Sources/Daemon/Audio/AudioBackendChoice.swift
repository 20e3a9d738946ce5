import AudioHost
import RtMidiBackend

/// Which sound system `midihub serve` plays into (`serve --audio`, docs/jack.md).
///
/// - Thread: any (a plain value).
public enum AudioBackendChoice: String, Sendable, CaseIterable {
    /// An ALSA PCM device: `--device`, else the first output node's, else `default`.
    case alsa
    /// The JACK server, as the JACK client named like the sequencer client; its ports are
    /// connected to the first output node's destination.
    case jack
    /// JACK when a server answers, else ALSA.
    case auto

    /// The target for the graph's main output `device` (the first output node's `output:`
    /// or `serve --device`), with the line to log when `auto` chose.
    /// - Thread: control (a probe of the JACK server takes a few milliseconds).
    public func target(device: String, clientName: String) -> (target: AudioTarget, choice: String?) {
        switch self {
        case .alsa:
            return (.alsa(device: device), nil)
        case .jack:
            return (.jack(client: clientName, destination: device), nil)
        case .auto:
            if JackAvailability.probe() == .available {
                return (.jack(client: clientName, destination: device), "audio: --audio auto: a JACK server runs, playing into JACK")
            }
            return (.alsa(device: device), "audio: --audio auto: no JACK server, playing to the ALSA device \(device)")
        }
    }
}
