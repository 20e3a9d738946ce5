/// Where the hub's sound goes: an ALSA PCM device, or the JACK server as a JACK client.
///
/// - Thread: any (a plain value).
public enum AudioTarget: Sendable, Equatable, CustomStringConvertible {
    /// An ALSA PCM device by name (`default`, `hw:1,0`, `plughw:…`).
    case alsa(device: String)
    /// The JACK client `client`, its `left` and `right` output ports connected to
    /// `destination`: `default` (or any ALSA name) for the system's physical playback ports,
    /// `jack:PATTERN` for the input ports whose full names match the glob PATTERN
    /// (`jack:system:playback_*`, `jack:jack_capture:*`).
    case jack(client: String, destination: String)

    /// - Thread: any.
    public var description: String {
        switch self {
        case .alsa(let device): device
        case .jack(let client, _): "JACK as '\(client)'"
        }
    }
}
