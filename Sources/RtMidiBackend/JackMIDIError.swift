/// A failure of the JACK MIDI backend. Each case reads as one line naming the problem
/// and, where there is one, the fix.
///
/// - Thread: any (a plain value).
public enum JackMIDIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No JACK server answered; `reason` is `JackAvailability`'s one-line reason.
    case unavailable(reason: String)
    /// RtMidi reported an error while doing `operation`; `message` is RtMidi's own text.
    case rtMidi(operation: String, message: String)
    /// No JACK MIDI port of that name and direction exists right now.
    case portNotFound(JackPortName, direction: JackPortDirection, available: [JackPortName])
    /// The name is not in midihub's JACK namespace (`jack:client:port`).
    case notAJackPortName(String)
    /// The message is longer than RtMidi can carry to JACK in one piece.
    case messageTooLong(bytes: Int, limit: Int, port: JackPortName)
    /// The port was closed before this call.
    case portClosed(JackPortName)
    /// `jack_connect` (`connecting`) or `jack_disconnect` refused; `code` is libjack's.
    case connectionFailed(JackPortName, JackPortName, connecting: Bool, code: Int32)

    public var description: String {
        switch self {
        case .unavailable(let reason):
            return reason
        case .rtMidi(let operation, let message):
            return "JACK MIDI: \(operation) failed: \(message)"
        case .portNotFound(let name, let direction, let available):
            let list = available.isEmpty ? "none" : available.map(\.description).joined(separator: ", ")
            return "JACK MIDI: no \(direction) port \(name) (\(direction) ports now: \(list)); check the name with `jack_lsp`"
        case .notAJackPortName(let name):
            return "JACK MIDI: '\(name)' is not a JACK port name; write it as jack:CLIENT:PORT, e.g. jack:fluidsynth:midi_00"
        case .messageTooLong(let bytes, let limit, let port):
            return "JACK MIDI: a \(bytes)-byte message is too long for \(port) (RtMidi carries at most \(limit) bytes); split the SysEx"
        case .portClosed(let name):
            return "JACK MIDI: port \(name) is closed; open it again"
        case .connectionFailed(let source, let destination, let connecting, let code):
            let call = connecting ? "jack_connect" : "jack_disconnect"
            return "JACK MIDI: \(call) \(source) -> \(destination) failed (error \(code)); check both ports with `jack_lsp -c`"
        }
    }
}
