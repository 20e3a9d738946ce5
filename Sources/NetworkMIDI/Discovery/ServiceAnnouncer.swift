import CAvahi

/// Announces a session host on the local network as an `_apple-midi._udp` service through
/// the Avahi daemon, so that a Mac's Audio MIDI Setup lists it in its Network window and
/// other hosts' browsers (`midihub network browse`, `avahi-browse`) find it (or the OSC
/// server as `_osc._udp` and `_osc._tcp`, for surfaces that look for one). Without a
/// running avahi-daemon it says so in one line and announces once the daemon starts (on a
/// machine without D-Bus's system bus it only says so); a name another host already
/// announces becomes "NAME #2", said in one line too.
///
/// - Thread: control: `init` and `stop` on the owner's thread (any but Avahi's, one at a time); the rest
///   on Avahi's poll thread (its callbacks).
public final class ServiceAnnouncer: @unchecked Sendable {
    private var name: String
    private let port: UInt16
    /// The DNS-SD service types announced, all on `port`.
    private let types: [String]
    private let log: @Sendable (String) -> Void
    private var connection: AvahiConnection?
    private var group: OpaquePointer?
    private var saidWaiting = false

    /// Starts announcing `name` on `port` as each of `types` (an RTP-MIDI host's control port
    /// by default); `log` gets one line for each thing a user should know (announced,
    /// renamed, no daemon, failed), on Avahi's poll thread.
    /// - Thread: control (not Avahi's poll thread)
    public init(name: String, port: Int, types: [String] = [ServiceAnnouncer.appleMIDI], log: @escaping @Sendable (String) -> Void) {
        (self.name, self.port, self.types, self.log) = (name, UInt16(clamping: port), types, log)
        let context = Unmanaged.passUnretained(self).toOpaque()
        connection = AvahiConnection(waitsForDaemon: true, context: context) { client, state, context in
            guard let client, let context else { return }
            Unmanaged<ServiceAnnouncer>.fromOpaque(context).takeUnretainedValue().clientChanged(client, state)
        }
        if let failure = connection?.failure {
            log("not announced on the network: Avahi: \(failure) (fix: apt install avahi-daemon and start it; "
                + "peers connect by address meanwhile)")
        }
        connection?.start()
    }

    /// RTP-MIDI's service type.
    public static let appleMIDI = AvahiConnection.appleMIDIServiceType
    /// OSC's service types (over UDP and TCP).
    public static let osc = ["_osc._udp", "_osc._tcp"]

    /// Withdraws the announcement and ends Avahi's thread.
    /// - Thread: control (not Avahi's poll thread; after `init` returned)
    public func stop() {
        connection?.close()
        connection = nil
    }

    private func clientChanged(_ client: OpaquePointer, _ state: AvahiClientState) {
        switch state {
        case AVAHI_CLIENT_S_RUNNING:
            announce(client)
        case AVAHI_CLIENT_S_COLLISION, AVAHI_CLIENT_S_REGISTERING:
            if let group { avahi_entry_group_reset(group) }
        case AVAHI_CLIENT_CONNECTING where !saidWaiting:
            saidWaiting = true
            log("not announced on the network: avahi-daemon is not running; peers connect by address, "
                + "and the announcement follows when it starts (fix: apt install avahi-daemon)")
        case AVAHI_CLIENT_FAILURE:
            log("not announced on the network any more: Avahi failed: \(AvahiConnection.lastError(of: client))")
        default:
            break
        }
    }

    /// Adds the service to a new or emptied entry group and commits it.
    private func announce(_ client: OpaquePointer) {
        if group == nil {
            let context = Unmanaged.passUnretained(self).toOpaque()
            group = avahi_entry_group_new(client, { group, state, context in
                guard let group, let context else { return }
                Unmanaged<ServiceAnnouncer>.fromOpaque(context).takeUnretainedValue().groupChanged(group, state)
            }, context)
        }
        guard let group, avahi_entry_group_is_empty(group) != 0 else { return }
        var added: Int32 = 0
        for type in types where added >= 0 {
            added = avahi_entry_group_add_service_strlst(group, AvahiConnection.anyInterface, AvahiConnection.anyProtocol,
                                                         AvahiPublishFlags(0), name, type, nil, nil, port, nil)
        }
        if added == Int32(AVAHI_ERR_COLLISION) {
            avahi_entry_group_reset(group)
            rename()
            announce(client)
        } else if added < 0 || avahi_entry_group_commit(group) < 0 {
            log("not announced on the network: Avahi refused '\(name)': \(AvahiConnection.lastError(of: client))")
        }
    }

    private func groupChanged(_ group: OpaquePointer, _ state: AvahiEntryGroupState) {
        switch state {
        case AVAHI_ENTRY_GROUP_ESTABLISHED:
            log("announced on the network as '\(name)' (\(types.joined(separator: ", ")), port \(port))")
        case AVAHI_ENTRY_GROUP_COLLISION:
            rename()
            avahi_entry_group_reset(group)
            announce(avahi_entry_group_get_client(group))
        case AVAHI_ENTRY_GROUP_FAILURE:
            log("not announced on the network: \(AvahiConnection.lastError(of: avahi_entry_group_get_client(group)))")
        default:
            break
        }
    }

    /// The next name Avahi suggests ("studio" → "studio #2"), said aloud.
    private func rename() {
        guard let alternative = avahi_alternative_service_name(name) else { return }
        defer { avahi_free(alternative) }
        let old = name
        name = String(cString: alternative)
        log("another host on the network is '\(old)': announced as '\(name)' instead")
    }
}
