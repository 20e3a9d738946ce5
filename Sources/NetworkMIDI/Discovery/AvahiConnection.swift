import CAvahi

/// One client of the Avahi daemon (over D-Bus) with Avahi's threaded poll: a thread of
/// Avahi's own that runs its callbacks, holding the poll's lock while it does. What the
/// announcer and the browser share: making the client, starting and ending the thread.
///
/// - Thread: control: `init`, `start` and `close` on one thread (the owner's); the client's callback
///   first within `init`, then on Avahi's poll thread.
final class AvahiConnection {
    /// The service type of Apple's network MIDI sessions (RTP-MIDI's control port).
    static let appleMIDIServiceType = "_apple-midi._udp"
    /// Every interface; IPv4 and IPv6, or IPv4 alone (Avahi's constants, typed).
    static let anyInterface = AvahiIfIndex(AVAHI_IF_UNSPEC)
    static let anyProtocol = AvahiProtocol(AVAHI_PROTO_UNSPEC)
    static let ipv4 = AvahiProtocol(AVAHI_PROTO_INET)

    private let poll: OpaquePointer
    /// The client; nil when it could not be made (`failure` says why).
    private(set) var client: OpaquePointer?
    /// Why the client could not be made, in Avahi's words.
    private(set) var failure: String?
    private var started = false

    /// Makes the client. `waitsForDaemon`: when avahi-daemon is not running, the client waits
    /// for it (state `AVAHI_CLIENT_CONNECTING`) instead of failing.
    /// `changed` hears each state of the client, with the `context` it is given.
    init?(waitsForDaemon: Bool, context: UnsafeMutableRawPointer, changed: AvahiClientCallback) {
        guard let poll = avahi_threaded_poll_new() else { return nil }
        self.poll = poll
        var error: Int32 = 0
        client = avahi_client_new(avahi_threaded_poll_get(poll), waitsForDaemon ? AVAHI_CLIENT_NO_FAIL : AvahiClientFlags(0),
                                  changed, context, &error)
        if client == nil { failure = String(cString: avahi_strerror(error)) }
    }

    /// Starts the poll thread: from now on the callbacks run there.
    func start() {
        started = avahi_threaded_poll_start(poll) == 0
    }

    /// Runs `body` with the poll's lock held (needed to touch the client from another thread).
    func locked<Result>(_ body: () -> Result) -> Result {
        guard started else { return body() }
        avahi_threaded_poll_lock(poll)
        defer { avahi_threaded_poll_unlock(poll) }
        return body()
    }

    /// Ends the poll thread, then frees the client (with what it made: entry groups, browsers).
    func close() {
        if started { avahi_threaded_poll_stop(poll) }
        if let client { avahi_client_free(client) }
        client = nil
        avahi_threaded_poll_free(poll)
    }

    /// Avahi's words for the client's last error.
    /// - Thread: any.
    static func lastError(of client: OpaquePointer?) -> String {
        String(cString: avahi_strerror(client.map(avahi_client_errno) ?? Int32(AVAHI_ERR_FAILURE)))
    }
}
