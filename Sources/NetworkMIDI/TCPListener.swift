import Glibc
import RTPMIDI

/// A non-blocking listening TCP socket: bound and listening at `init`, its connections taken
/// with `accept` when the descriptor polls readable.
///
/// - Thread: control (the thread that owns it; `init` any).
public final class TCPListener {
    /// The descriptor to poll for `POLLIN`.
    public let descriptor: Int32
    /// The port it is bound to (the system's choice when bound to 0).
    public let port: Int

    /// Binds to `address` (an IP address or a host name) and `port` (0: any) and listens.
    /// - Throws: a line saying what the system refused.
    public init(address: String, port: Int) throws(SocketFailure) {
        (descriptor, self.port) = try UDPSocket.bound(Int32(SOCK_STREAM.rawValue), address: address, port: port, prepare: { descriptor in
            var reuse: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }, listening: true)
    }

    deinit { close(descriptor) }

    /// The next connection waiting, or nil when none waits.
    public func accept() -> TCPStream? {
        var peer = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        while true {
            let connection = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.accept(descriptor, $0, &length)
                }
            }
            if connection < 0 && errno == EINTR { continue }
            guard connection >= 0 else { return nil }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            guard let address = UDPSocket.peer(peer) else {
                close(connection)
                continue
            }
            return TCPStream(descriptor: connection, peer: address)
        }
    }
}

/// One accepted TCP connection, non-blocking: read what has come, written through a bounded
/// buffer of what the peer has not taken yet.
///
/// - Thread: control (the thread that owns its listener).
public final class TCPStream {
    public let descriptor: Int32
    /// Who connected.
    public let peer: PeerAddress
    /// Bytes written but not yet taken by the system (the peer reads slowly).
    public private(set) var unsent: [UInt8] = []
    /// The most bytes kept for a peer that does not read: beyond it the connection is closed.
    public static let maximumUnsent = 1 << 20

    init(descriptor: Int32, peer: PeerAddress) {
        (self.descriptor, self.peer) = (descriptor, peer)
    }

    deinit { close(descriptor) }

    /// Whether the connection waits to write (poll it for `POLLOUT` too).
    public var isWaitingToWrite: Bool { !unsent.isEmpty }

    /// What has come since the last read (empty when nothing waits); nil when the peer closed
    /// the connection or it failed.
    public func read() -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = bytes.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
            guard count > 0 else { return nil }
            return Array(bytes[..<count])
        }
    }

    /// Writes `bytes` after any still unsent.
    /// - Returns: false when the connection failed or its peer has not read a mebibyte
    ///   already: close it.
    public func write(_ bytes: [UInt8]) -> Bool {
        unsent += bytes
        return flush()
    }

    /// Writes what the system takes of the unsent bytes.
    /// - Returns: false when the connection failed or keeps more than `maximumUnsent`.
    public func flush() -> Bool {
        while !unsent.isEmpty {
            let count = unsent.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            guard count > 0 else { return false }
            unsent.removeFirst(count)
        }
        return unsent.count <= Self.maximumUnsent
    }
}
