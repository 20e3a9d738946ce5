import CAvahi
import Dispatch

/// A session host another machine announces on the local network (`_apple-midi._udp`).
///
/// - Thread: any (a value).
public struct AnnouncedSession: Sendable, Equatable, Codable {
    /// The session name it shows (a Mac's is its Audio MIDI Setup session's).
    public var name: String
    /// Its host name (`studio.local`).
    public var host: String
    /// Its IPv4 address and control port.
    public var address: String
    public var port: Int
}

/// Finds the session hosts announced on the local network through the Avahi daemon: the
/// browse `midihub network browse` prints, and the name `connect` looks up.
///
/// - Thread: control: `find` on any thread (it blocks); the callbacks on Avahi's poll thread.
public final class SessionBrowser: @unchecked Sendable {
    /// The client, for the resolvers the browse callback starts.
    private var client: OpaquePointer?
    private var found: [AnnouncedSession] = []
    private var unresolved = 0
    private var listedAll = false
    private let done = DispatchSemaphore(value: 0)

    private init() {}

    /// The sessions announced now (IPv4), each once, by name; waits until Avahi has listed and
    /// resolved what it knows, or `seconds`.
    /// - Throws: `NetworkError.discovery` when the Avahi daemon cannot be reached.
    /// - Thread: control (it blocks up to `seconds`)
    public static func find(seconds: Double) throws(NetworkError) -> [AnnouncedSession] {
        let browser = SessionBrowser()
        let context = Unmanaged.passUnretained(browser).toOpaque()
        guard let connection = AvahiConnection(waitsForDaemon: false, context: context, changed: { _, _, _ in }) else {
            throw .discovery("no memory for Avahi's poll")
        }
        defer { connection.close() }
        guard let client = connection.client else { throw .discovery(connection.failure ?? "no client") }
        let started = avahi_service_browser_new(
            client, AvahiConnection.anyInterface, AvahiConnection.ipv4, AvahiConnection.appleMIDIServiceType, nil, AvahiLookupFlags(0),
            { _, interface, proto, event, name, type, domain, _, context in
                guard let context else { return }
                let browser = Unmanaged<SessionBrowser>.fromOpaque(context).takeUnretainedValue()
                browser.browsed(event, interface, proto, name, type, domain)
            }, context)
        guard started != nil else { throw .discovery(AvahiConnection.lastError(of: client)) }
        browser.client = client
        connection.start()
        _ = browser.done.wait(timeout: .now() + seconds)
        return connection.locked { Self.unique(browser.found) }
    }

    private func browsed(_ event: AvahiBrowserEvent, _ interface: AvahiIfIndex, _ proto: AvahiProtocol,
                         _ name: UnsafePointer<CChar>?, _ type: UnsafePointer<CChar>?, _ domain: UnsafePointer<CChar>?) {
        switch event {
        case AVAHI_BROWSER_NEW:
            guard let client else { return }
            let context = Unmanaged.passUnretained(self).toOpaque()
            let resolver = avahi_service_resolver_new(
                client, interface, proto, name, type, domain, AvahiConnection.ipv4, AvahiLookupFlags(0),
                { resolver, _, _, event, name, _, _, host, address, port, _, _, context in
                    guard let context else { return }
                    let browser = Unmanaged<SessionBrowser>.fromOpaque(context).takeUnretainedValue()
                    browser.resolved(event == AVAHI_RESOLVER_FOUND, name, host, address, port)
                    avahi_service_resolver_free(resolver)
                }, context)
            if resolver != nil { unresolved += 1 }
        case AVAHI_BROWSER_ALL_FOR_NOW, AVAHI_BROWSER_FAILURE:
            listedAll = true
            finishIfDone()
        default:
            break
        }
    }

    private func resolved(_ found: Bool, _ name: UnsafePointer<CChar>?, _ host: UnsafePointer<CChar>?,
                          _ address: UnsafePointer<AvahiAddress>?, _ port: UInt16) {
        unresolved -= 1
        if found, let name, let host, let address {
            var text = [CChar](repeating: 0, count: Int(AVAHI_ADDRESS_STR_MAX))
            avahi_address_snprint(&text, text.count, address)
            self.found.append(AnnouncedSession(name: String(cString: name), host: String(cString: host),
                                               address: String(decoding: text.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self),
                                               port: Int(port)))
        }
        finishIfDone()
    }

    private func finishIfDone() {
        if listedAll && unresolved == 0 { done.signal() }
    }

    /// One entry per name, by name: a host announces on each of its interfaces, and the
    /// loopback address is only the one chosen when there is no other.
    private static func unique(_ sessions: [AnnouncedSession]) -> [AnnouncedSession] {
        var byName: [String: AnnouncedSession] = [:]
        for session in sessions where byName[session.name].map({ $0.address.hasPrefix("127.") }) ?? true {
            byName[session.name] = session
        }
        return byName.values.sorted { $0.name < $1.name }
    }
}
