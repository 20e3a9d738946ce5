/// Resolves what a user typed into one port, the way `aconnect` reads addresses:
/// `client:port` numbers (`20:0`, `20.0`), a client number alone (its port 0, or
/// its lowest port), a client name, `client name:port`, a port name, or an
/// unambiguous case-insensitive prefix of a client or port name.
///
/// Exact names (ignoring case) win over prefixes. Pure logic over a port list, so
/// the same rules serve the CLI, patches and tests.
///
/// - Thread: any (a plain value).
public struct PortResolver: Sendable {
    public var ports: [SeqPortInfo]

    public init(ports: [SeqPortInfo]) {
        self.ports = ports.sorted { $0.address < $1.address }
    }

    /// The one port `text` names.
    /// - Throws: `PortResolutionError.noMatch` or `.ambiguous` (with the candidates).
    public func resolve(_ text: String) throws(PortResolutionError) -> SeqPortInfo {
        let query = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        if let numeric = try resolveNumeric(query) { return numeric }
        if let split = splitClientAndPort(query) {
            let clients = Set(matches(split.client, by: \.clientName).ports.map(\.address.client))
            let named = ports.filter { clients.contains($0.address.client) && $0.address.port == split.port }
            if !named.isEmpty { return try unique(query, named.map { ($0, $0.clientName) }) }
        }
        let byClient = matches(query, by: \.clientName)
        let byPort = matches(query, by: \.portName)
        // An exact name of either kind wins over prefixes of the other kind.
        let anyExact = byClient.exact || byPort.exact
        var candidates: [(SeqPortInfo, String)] = []
        if byClient.exact || !anyExact {
            for client in Set(byClient.ports.map(\.address.client)) {
                if let port = defaultPort(ofClient: client) { candidates.append((port, port.clientName)) }
            }
        }
        if byPort.exact || !anyExact {
            for port in byPort.ports where !candidates.contains(where: { $0.0.address == port.address }) {
                candidates.append((port, port.portName))
            }
        }
        return try unique(query, candidates)
    }

    /// `20:0`, `20.0` or `20`: must exist in the list.
    private func resolveNumeric(_ query: String) throws(PortResolutionError) -> SeqPortInfo? {
        guard let address = SeqAddress(query) else { return nil }
        let isClientOnly = !query.contains(":") && !query.contains(".")
        let match = isClientOnly
            ? ports.first { $0.address.client == address.client }
            : ports.first { $0.address == address }
        guard let match else { throw .noMatch(query) }
        return match
    }

    /// `name:3` → ("name", 3), when the text after the last colon is a port number.
    private func splitClientAndPort(_ query: String) -> (client: String, port: UInt8)? {
        guard let colon = query.lastIndex(of: ":"),
              let port = UInt8(query[query.index(after: colon)...]) else { return nil }
        let client = String(query[..<colon])
        return client.isEmpty ? nil : (client, port)
    }

    /// The ports whose name equals `query` ignoring case, or else those it is a prefix of.
    private func matches(_ query: String, by name: KeyPath<SeqPortInfo, String>) -> (ports: [SeqPortInfo], exact: Bool) {
        let lowered = query.lowercased()
        guard !lowered.isEmpty else { return ([], false) }
        let exact = ports.filter { $0[keyPath: name].lowercased() == lowered }
        if !exact.isEmpty { return (exact, true) }
        return (ports.filter { $0[keyPath: name].lowercased().hasPrefix(lowered) }, false)
    }

    /// A client's port 0, or its lowest port.
    private func defaultPort(ofClient client: UInt8) -> SeqPortInfo? {
        let own = ports.filter { $0.address.client == client }
        return own.first { $0.address.port == 0 } ?? own.first
    }

    private func unique(_ query: String, _ candidates: [(SeqPortInfo, String)]) throws(PortResolutionError) -> SeqPortInfo {
        let sorted = candidates.sorted { $0.0.address < $1.0.address }
        guard let first = sorted.first else { throw .noMatch(query) }
        guard sorted.count == 1 else {
            throw .ambiguous(query, candidates: sorted.map { .init(address: $0.0.address, name: $0.1) })
        }
        return first.0
    }
}

/// Why a port name did not resolve.
///
/// - Thread: any (a plain value).
public enum PortResolutionError: Error, Hashable, Sendable, CustomStringConvertible {
    case noMatch(String)
    case ambiguous(String, candidates: [Candidate])

    /// A port a name could mean, shown as `20:0 Virtual Raw MIDI 1-0`.
    public struct Candidate: Hashable, Sendable, CustomStringConvertible {
        public var address: SeqAddress
        public var name: String
        public init(address: SeqAddress, name: String) {
            self.address = address
            self.name = name
        }
        public var description: String { "\(address) \(name)" }
    }

    /// The problem, e.g. `no port matches 'xyz'`.
    public var problem: String {
        switch self {
        case .noMatch(let query):
            "no port matches '\(query)'"
        case .ambiguous(let query, let candidates):
            "'\(query)' is ambiguous: " + candidates.map(\.description).joined(separator: ", ")
        }
    }

    /// What to do about it.
    public var fix: String {
        switch self {
        case .noMatch: "run 'midihub ports' to list ports"
        case .ambiguous: "give client:port"
        }
    }

    public var description: String { "\(problem) (fix: \(fix))" }
}
