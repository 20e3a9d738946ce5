import Glibc

/// The networks peers may reach the hub from (`serve --allow`, docs/daemon.md#who-may-reach-it):
/// RTP-MIDI invitations and OSC from any other address are refused. This machine's own
/// addresses (127.0.0.0/8, ::1) are always allowed — a local program can use the control
/// socket anyway. An empty list allows every address (the default).
///
/// - Thread: any (a plain value).
public struct PeerAllowList: Hashable, Sendable, CustomStringConvertible {
    /// One network: an address's first `prefixLength` bits.
    public struct Network: Hashable, Sendable, CustomStringConvertible {
        /// 4 bytes (IPv4) or 16 (IPv6).
        let bytes: [UInt8]
        let prefixLength: Int
        public let description: String

        /// Reads `192.168.1.0/24`, `10.0.0.7` (one address), `fd00::/8`.
        /// - Throws: one line naming what is wrong and the form to write.
        public init(parsing text: String) throws(PeerAllowListError) {
            let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard let bytes = PeerAllowList.addressBytes(String(parts[0])) else { throw .notAnAddress(text) }
            let length: Int
            if parts.count == 2 {
                guard let given = Int(parts[1]), (0...bytes.count * 8).contains(given) else { throw .badPrefix(text, maximum: bytes.count * 8) }
                length = given
            } else {
                length = bytes.count * 8
            }
            (self.bytes, prefixLength, description) = (bytes, length, text)
        }

        /// Whether `address` (4 or 16 bytes) lies in the network.
        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            for bit in stride(from: 0, to: prefixLength, by: 8) {
                let index = bit / 8
                let mask: UInt8 = prefixLength - bit >= 8 ? 0xFF : ~(0xFF >> UInt8(prefixLength - bit))
                if address[index] & mask != bytes[index] & mask { return false }
            }
            return true
        }
    }

    public let networks: [Network]

    /// Every address allowed.
    public static let everyone = PeerAllowList(networks: [])

    public init(networks: [Network]) { self.networks = networks }

    /// Reads each of `texts` as a network.
    /// - Throws: the first that is not one.
    public init(parsing texts: [String]) throws(PeerAllowListError) {
        var networks: [Network] = []
        for text in texts { networks.append(try Network(parsing: text)) }
        self.init(networks: networks)
    }

    /// Whether a peer at `host` (an IP address as text) may reach the hub.
    public func allows(_ host: String) -> Bool {
        guard !networks.isEmpty else { return true }
        guard var bytes = Self.addressBytes(host) else { return false }
        if bytes.count == 16, bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] { bytes = Array(bytes.suffix(4)) }  // IPv4 in IPv6
        if bytes.count == 4, bytes[0] == 127 { return true }
        if bytes.count == 16, bytes == [UInt8](repeating: 0, count: 15) + [1] { return true }
        return networks.contains { $0.contains(bytes) }
    }

    public var description: String { networks.isEmpty ? "everyone" : networks.map(\.description).joined(separator: ", ") }

    /// The bytes of an IPv4 or IPv6 address in text, nil for anything else.
    static func addressBytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: v6) { Array($0) } }
        return nil
    }
}

/// A network that could not be read.
///
/// - Thread: any (a plain value).
public enum PeerAllowListError: Error, Hashable, Sendable, CustomStringConvertible {
    case notAnAddress(String)
    case badPrefix(String, maximum: Int)

    public var description: String {
        switch self {
        case .notAnAddress(let text):
            "'\(text)' is not a network (fix: write an IP address and a prefix length, like 192.168.1.0/24 or fd00::/8)"
        case .badPrefix(let text, let maximum):
            "'\(text)' has a prefix length outside 0…\(maximum) (fix: write the network's bits, like /24)"
        }
    }
}
