import Glibc

/// One client of the control server: its socket, the request bytes not yet cut into
/// lines, and the response and event bytes not yet written.
///
/// Responses are always queued; while more than `ControlProtocol.maxQueuedEventBytes`
/// wait, the server stops reading this client's requests. Events beyond that limit are
/// dropped and counted, and a `dropped` event with the count goes out as soon as there
/// is room again, so a slow subscriber never holds up the daemon.
///
/// - Thread: control (the server's loop thread only).
final class ServerConnection {
    let fd: Int32
    /// What this client subscribed to; `nil` before `subscribe`.
    var subscription: SubscriptionFilter?
    private var lines = LineSplitter(maxLength: ControlProtocol.maxRequestLength)
    private var output: [UInt8] = []
    private var written = 0
    private var droppedEvents = 0
    private var closing = false
    private var broken = false

    init(fd: Int32) {
        self.fd = fd
    }

    private var pendingBytes: Int { output.count - written }

    /// True while the server should poll this client for requests.
    var wantsInput: Bool { !closing && !broken && pendingBytes < ControlProtocol.maxQueuedEventBytes }
    /// True while bytes wait to be written.
    var wantsOutput: Bool { !broken && pendingBytes > 0 }
    /// True when the connection can be closed: broken, or closing with everything written.
    var isFinished: Bool { broken || (closing && pendingBytes == 0) }

    /// Reads what the socket has and returns the complete lines. At end of stream the
    /// last unterminated line is returned too and the connection closes once its
    /// responses are written.
    func readLines(using scratch: inout [UInt8]) -> [LineSplitter.Item] {
        guard let count = UnixSocket.receive(fd, into: &scratch) else { return [] }
        if count < 0 {
            broken = true
            return []
        }
        var items: [LineSplitter.Item] = []
        lines.append(scratch[0..<count])
        while let item = lines.next() { items.append(item) }
        if count == 0 {
            if let last = lines.finish() { items.append(last) }
            closing = true
        }
        return items
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

    /// Writes as much as the socket takes without blocking.
    func flush() {
        while pendingBytes > 0 {
            let count = UnixSocket.send(fd, output[written...])
            if count < 0 {
                broken = true
                return
            }
            if count == 0 { break }
            written += count
        }
        if pendingBytes == 0 {
            output.removeAll(keepingCapacity: true)
            written = 0
        } else if written > ControlProtocol.maxQueuedEventBytes {
            output.removeFirst(written)
            written = 0
        }
        queueDroppedNotice()
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
