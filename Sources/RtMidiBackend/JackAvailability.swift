internal import CRtMidiSupport

/// Whether a JACK server answers, found without starting one and without printing.
///
/// When no server runs, the JACK side of the hub is simply absent: the caller logs
/// `logLine` once and carries on with ALSA alone.
///
/// - Thread: any (a plain value).
public enum JackAvailability: Equatable, Sendable {
    case available
    /// No usable server; `reason` is one log line that says why and what to do.
    case unavailable(reason: String)

    /// The one log line a caller prints for this state.
    public var logLine: String {
        switch self {
        case .available: return "JACK MIDI available"
        case .unavailable(let reason): return reason
        }
    }

    /// Asks JACK whether a server runs, opening and closing a throwaway client.
    ///
    /// Never starts a server (`JackNoStartServer`, the same as `JACK_NO_START_SERVER=1`)
    /// and prints nothing: libjack's error and info output is silenced for the whole
    /// process from here on.
    ///
    /// - Parameter serverName: the server to ask; `nil` means `$JACK_DEFAULT_SERVER`,
    ///   else "default" — the server RtMidi's ports will use.
    /// - Thread: any; takes a few milliseconds when a server answers.
    public static func probe(serverName: String? = nil) -> JackAvailability {
        midihub_jack_silence()
        let status: UInt32
        if let serverName {
            status = midihub_jack_probe("midihub-probe", serverName)
        } else {
            status = midihub_jack_probe("midihub-probe", nil)
        }
        return status == 0 ? .available : .unavailable(reason: reason(forStatus: status))
    }

    // `jack_status_t` bits, from <jack/types.h>.
    private static let serverFailed: UInt32 = 0x10
    private static let initFailure: UInt32 = 0x100
    private static let shmFailure: UInt32 = 0x200
    private static let versionError: UInt32 = 0x400

    /// libjack's `jack_status_t` bits as one log line.
    static func reason(forStatus status: UInt32) -> String {
        let prefix = "JACK MIDI unavailable: "
        if status & serverFailed != 0 {
            return prefix + "no JACK server running (start one with `jackd -d dummy` or your session manager)"
        }
        if status & versionError != 0 {
            return prefix + "the JACK server speaks another protocol version (use the libjack that matches the running jackd)"
        }
        if status & (shmFailure | initFailure) != 0 {
            return prefix + "the JACK server refused a client (status 0x\(String(status, radix: 16)); check jackd's log)"
        }
        return prefix + "opening a JACK client failed (status 0x\(String(status, radix: 16)); is jackd running as this user?)"
    }
}
