internal import CRtMidiSupport
import Synchronization

/// Connects and disconnects other clients' JACK ports by name (`jack_connect`,
/// `jack_disconnect`), through a JACK client of its own that registers no port.
///
/// A server that died: libjack aborts the process when a client of a dead server is
/// closed, so an owner that lost its server keeps the connector, never releasing it
/// (see docs/jack.md).
///
/// - Thread: any (calls are serialised by a mutex).
public final class JackPortConnector: Sendable {
    private struct Handle: @unchecked Sendable {
        let client: UnsafeMutableRawPointer
    }

    private let handle: Mutex<Handle>

    /// Opens the connector's client on the server (`$JACK_DEFAULT_SERVER`, else "default")
    /// without starting one.
    /// - Throws: `JackMIDIError.unavailable` with `JackAvailability`'s one-line reason.
    /// - Thread: any.
    public init(clientName: String = "midihub") throws(JackMIDIError) {
        midihub_jack_silence()
        var status: UInt32 = 0
        guard let client = midihub_jack_connector_open(clientName, nil, &status) else {
            throw .unavailable(reason: JackAvailability.reason(forStatus: status))
        }
        handle = Mutex(Handle(client: client))
    }

    deinit {
        handle.withLock { midihub_jack_connector_close($0.client) }
    }

    /// Connects `source` (a JACK output port) to `destination` (an input port); already
    /// connected is success.
    /// - Throws: `JackMIDIError.connectionFailed` with libjack's error code.
    /// - Thread: any but JACK's process thread.
    public func connect(_ source: JackPortName, to destination: JackPortName) throws(JackMIDIError) {
        let result = handle.withLock { midihub_jack_connector_connect($0.client, source.fullName, destination.fullName) }
        guard result == 0 else { throw .connectionFailed(source, destination, connecting: true, code: result) }
    }

    /// Disconnects `source` from `destination`; not connected is success.
    /// - Throws: `JackMIDIError.connectionFailed` (e.g. no port named `source`).
    /// - Thread: any but JACK's process thread.
    public func disconnect(_ source: JackPortName, from destination: JackPortName) throws(JackMIDIError) {
        let result = handle.withLock { midihub_jack_connector_disconnect($0.client, source.fullName, destination.fullName) }
        guard result == 0 else { throw .connectionFailed(source, destination, connecting: false, code: result) }
    }

    /// True once the connector's server shut down or died (libjack tells its clients at
    /// once), so the owner need not probe a server it is connected to.
    /// - Thread: any.
    public var serverIsGone: Bool {
        handle.withLock { midihub_jack_connector_server_gone($0.client) } == 1
    }

    /// Whether `source` feeds `destination` now (`false` when `source` does not exist), as
    /// this client sees JACK's graph: a connection just made or broken shows a moment later.
    /// - Thread: any.
    public func isConnected(_ source: JackPortName, to destination: JackPortName) -> Bool {
        handle.withLock { midihub_jack_connector_is_connected($0.client, source.fullName, destination.fullName) } == 1
    }
}
