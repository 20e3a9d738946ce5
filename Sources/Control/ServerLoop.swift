import Dispatch
import Glibc

/// The control server's loop: one thread polls the listening socket, the wake pipe
/// and every client; it reads requests, calls the handler, fans events out and writes
/// without ever blocking on a client. `limits` keep one client from costing the others:
/// one that stops reading is dropped, and at the cap the quietest makes room for a new one.
///
/// - Thread: control (created by `ControlServer.start()`, runs on its own thread).
final class ServerLoop: @unchecked Sendable {
    private let listener: Int32
    private let inbox: EventInbox
    private let responder: Responder
    private let limits: ServerLimits
    /// Says why a client was dropped or refused (the daemon's log).
    private let report: @Sendable (String) -> Void
    private var connections: [ServerConnection] = []
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)
    private var connectionsAccepted = 0
    /// False while the daemon starts (`ControlServer.start(holdingRequests:)`): clients are
    /// accepted and their requests wait, unanswered, until the inbox opens.
    private var serving: Bool
    /// Where requests that read a client's file run (`Responder.Answer.later`), one at a time.
    private let fileThread = DispatchQueue(label: "midihub-control-files")

    init(listener: Int32, inbox: EventInbox, responder: Responder, limits: ServerLimits, holdingRequests: Bool,
         report: @escaping @Sendable (String) -> Void) {
        serving = !holdingRequests
        self.listener = listener
        self.inbox = inbox
        self.responder = responder
        self.limits = limits
        self.report = report
    }

    /// Serves until `inbox.requestStop()`, then closes every client — after handing each
    /// what the socket takes at once of the events posted before the stop (the daemon's
    /// `stopping` among them).
    func run() {
        while true {
            let batch = inbox.take()
            if batch.open {
                serving = true
                for connection in connections { answer(connection) }
            }
            fanOut(batch)
            deliver(batch.answers)
            if batch.stop {
                for connection in connections { connection.flush(now: .now) }
                break
            }
            let now = ContinuousClock.now
            for connection in connections {
                connection.flush(now: now)
                answer(connection)
            }
            dropStalled(now: now)
            closeFinished()

            var entries = pollEntries()
            // While output waits, wake each second to see whether its client stalled.
            let timeout: Int32 = connections.contains(where: \.wantsOutput) ? 1000 : -1
            guard poll(&entries, nfds_t(entries.count), timeout) >= 0 else {
                if errno == EINTR { continue }
                break
            }
            if entries[0].revents != 0 { inbox.drainWakeups() }
            let polled = connections
            if entries[1].revents & Int16(POLLIN) != 0 { acceptWaiting() }
            for (connection, entry) in zip(polled, entries.dropFirst(2)) {
                if entry.revents & Int16(POLLERR) != 0 { connection.closeAfterFlush() }
                if entry.revents & Int16(POLLIN | POLLHUP) != 0, connection.wantsInput {
                    connection.receive(using: &scratch, now: .now)
                    answer(connection)
                }
            }
        }
        for connection in connections { connection.close() }
        connections.removeAll()
    }

    private func pollEntries() -> [pollfd] {
        var entries = [
            pollfd(fd: inbox.wakeReader, events: Int16(POLLIN), revents: 0),
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
        ]
        for connection in connections {
            let events = (connection.wantsInput ? POLLIN : 0) | (connection.wantsOutput ? POLLOUT : 0)
            entries.append(pollfd(fd: connection.fd, events: Int16(events), revents: 0))
        }
        return entries
    }

    /// Takes every waiting client; at the cap, a new one gets the place of the client that
    /// has been quiet longest (at least `quietSeconds`), or is closed at once when none is.
    private func acceptWaiting() {
        while let fd = UnixSocket.acceptNext(from: listener) {
            let now = ContinuousClock.now
            if connections.count >= limits.maxClients, !makeRoom(now: now) {
                report("control socket: refused a client: \(connections.count) clients connected, none quiet for "
                    + "\(Int(limits.quietSeconds)) s (fix: close idle clients of the control socket)")
                Glibc.close(fd)
                continue
            }
            connectionsAccepted += 1
            connections.append(ServerConnection(fd: fd, number: connectionsAccepted, now: now))
        }
    }

    private func makeRoom(now: ContinuousClock.Instant) -> Bool {
        guard let quietest = connections.filter({ !$0.isFinished }).min(by: { $0.lastHeard < $1.lastHeard }),
              Self.seconds(now - quietest.lastHeard) >= limits.quietSeconds
        else { return false }
        report("control socket: closed a client quiet for \(Int(Self.seconds(now - quietest.lastHeard))) s "
            + "to make room for a new one (\(limits.maxClients) clients at most)")
        quietest.close()
        connections.removeAll { $0 === quietest }
        return true
    }

    /// Answers the client's buffered requests while its output has room; a request that
    /// reads a file goes to the file thread, and the ones after it wait for its answer.
    private func answer(_ connection: ServerConnection) {
        guard serving else { return }
        while let item = connection.nextRequest() {
            switch item {
            case .line(let line):
                switch responder.answer(to: line, from: connection) {
                case .now(let response):
                    connection.send(response)
                case .later(let work):
                    connection.awaitingAnswer = true
                    let number = connection.number
                    fileThread.async { [inbox] in inbox.postAnswer(work(), to: number) }
                }
            case .tooLong:
                connection.send(responder.lineTooLong())
                connection.closeAfterFlush()
                return
            }
        }
    }

    /// Queues the answers the file thread made; their clients' next requests go on.
    private func deliver(_ answers: [(connection: Int, line: [UInt8])]) {
        for (number, line) in answers {
            guard let connection = connections.first(where: { $0.number == number }) else { continue }
            connection.send(line)
            connection.awaitingAnswer = false
        }
    }

    /// Drops the clients that took none of their waiting output for `stalledSeconds`.
    private func dropStalled(now: ContinuousClock.Instant) {
        for connection in connections {
            guard let since = connection.stuckSince, Self.seconds(now - since) >= limits.stalledSeconds else { continue }
            report("control socket: dropped a client that stopped reading (\(connection.pendingBytes) bytes "
                + "waiting for \(Int(limits.stalledSeconds)) s)")
            connection.drop()
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

    private static func seconds(_ duration: Duration) -> Double {
        let (whole, attoseconds) = duration.components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
