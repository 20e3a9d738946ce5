/// Constants of the control protocol: newline-delimited JSON over a UNIX socket.
///
/// Bump `version` whenever a request, response or event changes shape in a way an
/// older peer would misread. The `hello` exchange and its `protocolVersion` field
/// never change shape, so any two versions can still tell each other apart.
///
/// - Thread: any (constants).
public enum ControlProtocol {
    /// The protocol version this build speaks.
    public static let version = 1

    /// The longest request line the server accepts, without its newline (1 MiB).
    /// A longer line gets a `line-too-long` error and the connection is closed.
    public static let maxRequestLength = 1 << 20

    /// The longest response or event line the client accepts (64 MiB).
    public static let maxResponseLength = 64 << 20

    /// The most bytes of events queued for one subscriber that does not read (1 MiB).
    /// Past it, new events for that subscriber are dropped and counted; a `dropped`
    /// event with the count is sent as soon as the subscriber catches up.
    public static let maxQueuedEventBytes = 1 << 20

    /// The most clients served at once. At the cap, a new client takes the place of the one
    /// that has sent nothing longest (at least 5 s), or is closed at once (see `ServerLimits`).
    public static let maxClients = 64
}
