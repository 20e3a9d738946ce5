import Control
import Glibc

/// The URLs that open the remote, with the token: `http://HOST:PORT/?token=TOKEN`. For a
/// remote on every interface (`0.0.0.0`, `::`), one for each of this machine's IPv4
/// addresses, the network's first and `127.0.0.1` last, so a phone on the LAN has one to
/// open; otherwise the one address it listens on.
///
/// - Thread: any.
public enum RemoteURL {
    public static func all(for address: ListenAddress, token: RemoteToken) -> [String] {
        let hosts = address.host == "0.0.0.0" || address.host == "::" ? interfaceAddresses() : [address.host]
        return hosts.map { url(ListenAddress(host: $0, port: address.port), token: token) }
    }

    public static func url(_ address: ListenAddress, token: RemoteToken) -> String {
        "http://\(address)/?token=\(token.text)"
    }

    /// This machine's IPv4 addresses, loopback last.
    static func interfaceAddresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return ["127.0.0.1"] }
        defer { freeifaddrs(list) }
        var addresses: [String] = []
        var entry = list
        while let current = entry?.pointee {
            entry = current.ifa_next
            guard let socketAddress = current.ifa_addr, Int32(socketAddress.pointee.sa_family) == AF_INET else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var address = inet.pointee.sin_addr
                _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
            }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !addresses.contains(address) { addresses.append(address) }
        }
        let (loopback, network) = (addresses.filter { $0.hasPrefix("127.") }, addresses.filter { !$0.hasPrefix("127.") })
        return network + (loopback.isEmpty ? ["127.0.0.1"] : loopback)
    }
}
