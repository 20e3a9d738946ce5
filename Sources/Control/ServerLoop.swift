import Glibc

/// The control server's loop: one thread polls the listening socket, the wake pipe
/// and every client; it reads requests, calls the handler, fans events out and writes
/// without ever blocking on a client.
///
/// - Thread: control (created by `ControlServer.start()`, runs on its own thread).
final class ServerLoop: @unchecked Sendable {
    private let listener: Int32
    private let inbox: EventInbox
    private let responder: Responder
    private var connections: [ServerConnection] = []
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    init(listener: Int32, inbox: EventInbox, responder: Responder) {
        self.listener = listener
        self.inbox = inbox
        self.responder = responder
    }

    /// Serves until `inbox.requestStop()`, then closes every client.
    func run() {
        while true {
            let batch = inbox.take()
            if batch.stop { break }
            fanOut(batch)
            for connection in connections { connection.flush() }
            closeFinished()

            var entries = pollEntries()
            guard poll(&entries, nfds_t(entries.count), -1) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            if entries[0].revents != 0 { inbox.drainWakeups() }
            let polled = connections
            if entries[1].revents & Int16(POLLIN) != 0 { acceptWaiting() }
            for (connection, entry) in zip(polled, entries.dropFirst(2)) {
                if entry.revents & Int16(POLLERR) != 0 { connection.closeAfterFlush() }
                if entry.revents & Int16(POLLIN | POLLHUP) != 0 { serve(connection) }
            }
        }
        for connection in connections { connection.close() }
        connections.removeAll()
    }

    private func pollEntries() -> [pollfd] {
        var entries = [
            pollfd(fd: inbox.wakeReader, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listener, events: connections.count < ControlProtocol.maxClients ? Int16(POLLIN) : 0, revents: 0),
        ]
        for connection in connections {
            let events = (connection.wantsInput ? POLLIN : 0) | (connection.wantsOutput ? POLLOUT : 0)
            entries.append(pollfd(fd: connection.fd, events: Int16(events), revents: 0))
        }
        return entries
    }

    private func acceptWaiting() {
        while connections.count < ControlProtocol.maxClients, let fd = UnixSocket.acceptNext(from: listener) {
            connections.append(ServerConnection(fd: fd))
        }
    }

    private func serve(_ connection: ServerConnection) {
        guard connection.wantsInput else { return }
        for item in connection.readLines(using: &scratch) {
            switch item {
            case .line(let line):
                connection.send(responder.respond(to: line, from: connection))
            case .tooLong:
                connection.send(responder.lineTooLong())
                connection.closeAfterFlush()
                return
            }
        }
    }

    private func fanOut(_ batch: EventInbox.Batch) {
        for connection in connections {
            guard let filter = connection.subscription else { continue }
            connection.countDropped(batch.overflow)
            for event in batch.events where filter.admits(event.kind) {
                connection.offer(event: event.line)
            }
        }
    }

    private func closeFinished() {
        connections.removeAll { connection in
            guard connection.isFinished else { return false }
            connection.close()
            return true
        }
    }
}
