import Glibc

/// One client of the control server: its socket, the request bytes not yet answered, and
/// the response and event bytes not yet written.
///
/// What one client costs is bounded. Requests are answered one line at a time while less
/// than `ControlProtocol.maxQueuedEventBytes` of output waits; past it, its requests wait
/// unread (in the kernel's socket buffer, then in the client's own writes), so a client
/// that sends and never reads holds at most that much and one answer. Events past the
/// limit are dropped and counted, and a `dropped` event with the count goes out as soon as
/// there is room again. A client that takes none of its output for
/// `ServerLimits.stalledSeconds` is dropped (`ServerLoop`).
///
/// - Thread: control (the server's loop thread only).
final class ServerConnection {
    let fd: Int32
    /// The server's number for this client (an answer made off the loop finds it by it).
    let number: Int
    /// A request's answer is being made off the loop's thread: the requests after it wait,
    /// so answers keep the order of the requests.
    var awaitingAnswer = false
    /// What this client subscribed to; `nil` before `subscribe`.
    var subscription: SubscriptionFilter?
    /// When the client last sent bytes (or connected).
    private(set) var lastHeard: ContinuousClock.Instant
    /// Since when output has waited without the client taking any of it; `nil` while it reads.
    private(set) var stuckSince: ContinuousClock.Instant?
    private var lines = LineSplitter(maxLength: ControlProtocol.maxRequestLength)
    private var output: [UInt8] = []
    private var written = 0
    private var droppedEvents = 0
    /// The client shut its writing side: the requests buffered are the last ones.
    private var endOfInput = false
    private var closing = false
    private var broken = false

    init(fd: Int32, number: Int, now: ContinuousClock.Instant) {
        self.fd = fd
        self.number = number
        lastHeard = now
    }

    var pendingBytes: Int { output.count - written }

    private var hasRoom: Bool { pendingBytes < ControlProtocol.maxQueuedEventBytes }
    /// True while the server should poll this client for requests.
    var wantsInput: Bool { !endOfInput && !closing && !broken && hasRoom }
    /// True while bytes wait to be written.
    var wantsOutput: Bool { !broken && pendingBytes > 0 }
    /// True when the connection can be closed: broken, or closing with everything written.
    var isFinished: Bool { broken || (closing && !awaitingAnswer && pendingBytes == 0) }

    /// Reads what the socket has into the buffer of requests (`nextRequest` cuts them).
    func receive(using scratch: inout [UInt8], now: ContinuousClock.Instant) {
        guard let count = UnixSocket.receive(fd, into: &scratch) else { return }
        if count < 0 {
            broken = true
        } else if count == 0 {
            endOfInput = true
        } else {
            lines.append(scratch[0..<count])
            lastHeard = now
        }
    }

    /// The next request line to answer, while its answer has room; at the end of the
    /// client's input, the last unterminated line, after which the connection closes once
    /// its answers are written.
    func nextRequest() -> LineSplitter.Item? {
        guard !closing, !broken, !awaitingAnswer, hasRoom else { return nil }
        if let item = lines.next() { return item }
        guard endOfInput else { return nil }
        closing = true
        return lines.finish()
    }

    /// Queues a response line; it is never dropped.
    func send(_ line: [UInt8]) {
        output.append(contentsOf: line)
    }

    /// Queues an event line, or drops and counts it when too much is queued.
    func offer(event line: [UInt8]) {
        queueDroppedNotice()
        if droppedEvents > 0 || pendingBytes + line.count > ControlProtocol.maxQueuedEventBytes {
            droppedEvents += 1
        } else {
            output.append(contentsOf: line)
        }
    }

    /// Counts events this client missed before they reached it.
    func countDropped(_ count: Int) {
        droppedEvents += count
    }

    /// Stops reading requests; the connection closes once everything queued is written.
    func closeAfterFlush() {
        closing = true
    }

    /// Gives up on the client at once, whatever is queued.
    func drop() {
        broken = true
    }

    /// Writes as much as the socket takes without blocking; notes since when the client
    /// has taken nothing of what waits.
    func flush(now: ContinuousClock.Instant) {
        var progressed = false
        while pendingBytes > 0 {
            let count = UnixSocket.send(fd, output[written...])
            if count < 0 {
                broken = true
                return
            }
            if count == 0 { break }
            written += count
            progressed = true
        }
        if pendingBytes == 0 {
            output.removeAll(keepingCapacity: true)
            written = 0
        } else if written > ControlProtocol.maxQueuedEventBytes {
            output.removeFirst(written)
            written = 0
        }
        queueDroppedNotice()
        if pendingBytes == 0 || progressed {
            stuckSince = nil
        } else if stuckSince == nil {
            stuckSince = now
        }
    }

    /// Queues `{"event":"dropped","count":N}` when events were dropped and it fits now.
    private func queueDroppedNotice() {
        guard droppedEvents > 0, let notice = try? JSONLine.encode(ControlEvent.dropped(count: droppedEvents)),
            pendingBytes + notice.count <= ControlProtocol.maxQueuedEventBytes
        else { return }
        output.append(contentsOf: notice)
        droppedEvents = 0
    }

    func close() {
        Glibc.close(fd)
    }
}
