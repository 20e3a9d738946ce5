import Glibc

/// The socket system calls the server and the client use, in one place.
/// Every descriptor is close-on-exec; writes never raise SIGPIPE.
///
/// - Thread: any.
enum UnixSocket {
    /// A listening, non-blocking stream socket bound to `path`, mode 0600.
    static func listen(at path: String) throws(SocketError) -> Int32 {
        let fd = try makeSocket(flags: Int32(SOCK_NONBLOCK.rawValue), path: path)
        do throws(SocketError) {
            try withAddress(path) { (address, length) throws(SocketError) in
                guard bind(fd, address, length) == 0 else { throw SocketError("bind", path: path) }
            }
            guard chmod(path, 0o600) == 0 else { throw SocketError("chmod", path: path) }
            guard Glibc.listen(fd, 16) == 0 else { throw SocketError("listen", path: path) }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// A blocking stream socket connected to `path`.
    static func connect(to path: String) throws(SocketError) -> Int32 {
        let fd = try makeSocket(flags: 0, path: path)
        do throws(SocketError) {
            try withAddress(path) { (address, length) throws(SocketError) in
                guard Glibc.connect(fd, address, length) == 0 else { throw SocketError("connect", path: path) }
            }
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// The next waiting connection as a non-blocking descriptor; `nil` when none waits
    /// or accepting failed (the server tries again on the next poll).
    static func acceptNext(from listener: Int32) -> Int32? {
        let fd = accept(listener, nil, nil)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// Writes what it can; the count written, 0 when the socket is full, -1 on error.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> Int {
        let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        if written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return 0 }
        return written
    }

    /// Reads what is there; the count read, 0 at end of stream, -1 on error, `nil` when
    /// nothing is there yet.
    static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Int? {
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        return count
    }

    /// Waits until `fd` is readable or `milliseconds` pass (-1: no limit); true when readable.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) throws(SocketError) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { throw SocketError("poll") }
        }
    }

    private static func makeSocket(flags: Int32, path: String) throws(SocketError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | flags, 0)
        guard fd >= 0 else { throw SocketError("socket", path: path) }
        return fd
    }

    private static func withAddress(
        _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SocketError) -> Void
    ) throws(SocketError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { throw SocketError("socket path", path: path, code: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        try withUnsafePointer(to: &address) { (pointer) throws(SocketError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { (address) throws(SocketError) in
                try body(address, length)
            }
        }
    }
}
