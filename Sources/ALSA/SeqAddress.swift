/// A sequencer address: client and port numbers, written `client:port` as ALSA does.
///
/// - Thread: any (a plain value).
public struct SeqAddress: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var client: UInt8
    public var port: UInt8

    public init(client: UInt8, port: UInt8) {
        self.client = client
        self.port = port
    }

    /// Parses the numeric forms `20:0`, `20.0` and `20` (port 0); `nil` for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false) }
        guard (1...2).contains(parts.count),
              let client = UInt8(parts[0]),
              let port = parts.count == 2 ? UInt8(parts[1]) : 0
        else { return nil }
        self.init(client: client, port: port)
    }

    /// The System client's announce port (0:1), source of client/port/subscription notices.
    public static let systemAnnounce = SeqAddress(client: 0, port: 1)
    /// The System client's timer port (0:0), destination of queue control events.
    public static let systemTimer = SeqAddress(client: 0, port: 0)

    public var description: String { "\(client):\(port)" }

    public static func < (a: SeqAddress, b: SeqAddress) -> Bool {
        (a.client, a.port) < (b.client, b.port)
    }
}
