import Glibc

/// A connection to the daemon's control socket. Requests are answered in order;
/// events that arrive while waiting for a response are kept for `nextEvent`.
///
///     do {
///         let client = try ControlClient()      // .daemonNotRunning → work alone
///         try client.hello()                    // .versionMismatch → refuse
///         let nodes = try client.nodes()
///     } catch {
///         guard error.isDaemonNotRunning else { throw error }
///         …                                     // no daemon: do it directly
///     }
///
/// (Catch everything and rethrow as above: Swift 6.3.1 crashes compiling a partial typed
/// catch, `catch where …`, followed by a loop in the same function.)
///
/// - Thread: one thread at a time (not shared).
public final class ControlClient {
    public let path: ControlSocketPath
    /// How long a request waits for its response, in seconds.
    public var timeout: Double
    private let fd: Int32
    private var lines = LineSplitter(maxLength: ControlProtocol.maxResponseLength)
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var nextID = 1
    private var receivedEvents: [ControlEvent] = []

    /// Connects to the daemon. Throws `.daemonNotRunning` when there is no socket or
    /// nobody listens on it.
    public init(path: ControlSocketPath = .resolve(), timeout: Double = 30) throws(ControlClientError) {
        self.path = path
        self.timeout = timeout
        do {
            fd = try UnixSocket.connect(to: path.socket)
        } catch where [ENOENT, ECONNREFUSED].contains(error.code) {
            throw .daemonNotRunning(socket: path.socket)
        } catch {
            throw .system(error)
        }
        if let reason = Self.distrust(fd, in: path.directory) {
            close(fd)
            throw .untrustedSocket(socket: path.socket, reason: reason)
        }
    }

    /// Why the socket at `directory` is not this user's daemon, or `nil`: the folder must be
    /// this user's (or root's) and closed to others — `/tmp/midihub-UID` is a name anyone
    /// could take first — and the program listening must run as this user or root.
    static func distrust(_ fd: Int32, in directory: String, userID: uid_t = getuid()) -> String? {
        var status = stat()
        if lstat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { return "\(directory) is not a folder" }
            guard status.st_uid == userID || status.st_uid == 0 else { return "its folder belongs to uid \(status.st_uid)" }
            guard status.st_mode & 0o022 == 0 else { return "others may write to its folder \(directory)" }
        }
        // `struct ucred` (pid, uid, gid), which Swift's Glibc does not export without _GNU_SOURCE.
        struct PeerCredentials { var pid: pid_t = 0, uid: uid_t = 0, gid: gid_t = 0 }
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else {
            return "its credentials cannot be read: \(String(cString: strerror(errno)))"
        }
        guard credentials.uid == userID || credentials.uid == 0 else {
            return "the program listening there runs as uid \(credentials.uid)"
        }
        return nil
    }

    deinit {
        close(fd)
    }

    /// Says hello and checks the daemon's protocol version: throws `.versionMismatch`
    /// when it differs from `ControlProtocol.version`.
    @discardableResult
    public func hello(client: String? = nil) throws(ControlClientError) -> HelloResult {
        let hello = try expect(.hello(Hello(client: client))) { if case .hello(let hello) = $0 { hello } else { nil } }
        guard hello.protocolVersion == ControlProtocol.version else {
            throw .versionMismatch(daemon: hello.protocolVersion, client: ControlProtocol.version)
        }
        return hello
    }

    /// Sends a request and waits for its response. Throws `.rejected` with the
    /// daemon's error when it refused.
    public func request(_ request: ControlRequest) throws(ControlClientError) -> ControlResult {
        let id = RequestID.number(nextID)
        nextID += 1
        let line: [UInt8]
        do {
            line = try request.encodedLine(id: id)
        } catch {
            throw .malformedLine("cannot encode the request: \(error)")
        }
        try write(line)
        let deadline = Deadline(seconds: timeout)
        while true {
            guard let line = try readLine(until: deadline) else { throw .connectionClosed }
            if let response = try response(in: line, for: request.kind, id: id) {
                return try response.get()
            }
        }
    }

    /// Subscribes to events (all of them unless `filter` says otherwise) and returns the
    /// stream. The client can still send requests.
    public func subscribe(_ filter: SubscriptionFilter = SubscriptionFilter()) throws(ControlClientError)
        -> ControlSubscription
    {
        _ = try request(.subscribe(filter))
        return ControlSubscription(client: self)
    }

    /// The next event: one received earlier, or the next line from the daemon.
    /// `nil` when the daemon closed the connection. `timeout` in seconds, `nil` waits forever.
    public func nextEvent(timeout: Double? = nil) throws(ControlClientError) -> ControlEvent? {
        if !receivedEvents.isEmpty { return receivedEvents.removeFirst() }
        let deadline = timeout.map(Deadline.init(seconds:))
        while true {
            guard let line = try readLine(until: deadline) else { return nil }
            if let event = try event(in: line) { return event }
        }
    }

    /// A response to request `id`, or `nil` for an event line (kept for `nextEvent`).
    private func response(in line: [UInt8], for kind: ControlRequestKind, id: RequestID) throws(ControlClientError)
        -> Result<ControlResult, ControlClientError>?
    {
        if let event = try event(in: line) {
            receivedEvents.append(event)
            return nil
        }
        do {
            let header = try JSONLine.decode(ResponseHeader.self, from: line)
            guard header.ok else {
                // A line-too-long or bad-json error carries no id but answers this request.
                guard header.id == id || header.id == nil else { return nil }
                return .failure(.rejected(header.error ?? ControlError(.failed, "the daemon gave no reason")))
            }
            guard header.id == id else { return nil }
            return .success(try kind.decodeResult(from: line))
        } catch let error as DecodingError {
            throw .malformedLine(error.summary)
        } catch {
            throw .malformedLine("\(error)")
        }
    }

    /// The event in `line`, or `nil` when it is not an event line.
    private func event(in line: [UInt8]) throws(ControlClientError) -> ControlEvent? {
        do {
            guard try JSONLine.decode(LineShape.self, from: line).event != nil else { return nil }
            return try JSONLine.decode(ControlEvent.self, from: line)
        } catch let error as DecodingError {
            throw .malformedLine(error.summary)
        } catch {
            throw .malformedLine("\(error)")
        }
    }

    private func write(_ line: [UInt8]) throws(ControlClientError) {
        var sent = 0
        while sent < line.count {
            let count = UnixSocket.send(fd, line[sent...])
            if count < 0 {
                if errno == EPIPE || errno == ECONNRESET { throw .connectionClosed }
                throw .system(SocketError("send", path: path.socket))
            }
            sent += count
        }
    }

    /// The next line, or `nil` at end of stream.
    private func readLine(until deadline: Deadline?) throws(ControlClientError) -> [UInt8]? {
        while true {
            switch lines.next() {
            case .line(let line): return line
            case .tooLong: throw .malformedLine("a line longer than \(ControlProtocol.maxResponseLength) bytes")
            case nil: break
            }
            let readable: Bool
            do {
                readable = try UnixSocket.waitReadable(fd, milliseconds: deadline?.remainingMilliseconds ?? -1)
            } catch {
                throw .system(error)
            }
            guard readable else { throw .timedOut(seconds: deadline?.seconds ?? 0) }
            guard let count = UnixSocket.receive(fd, into: &scratch) else { continue }
            if count < 0 {
                if errno == ECONNRESET { return nil }
                throw .system(SocketError("recv", path: path.socket))
            }
            if count == 0 {
                guard case .line(let last) = lines.finish() else { return nil }
                return last
            }
            lines.append(scratch[0..<count])
        }
    }
}

/// A point in time a read must finish by.
private struct Deadline {
    let seconds: Double
    private let end: ContinuousClock.Instant

    init(seconds: Double) {
        self.seconds = seconds
        end = .now + .milliseconds(Int64((seconds * 1000).rounded()))
    }

    var remainingMilliseconds: Int32 {
        let (wholeSeconds, attoseconds) = (end - .now).components
        return Int32(clamping: max(0, wholeSeconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
