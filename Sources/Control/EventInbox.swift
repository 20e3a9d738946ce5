import Glibc
import Synchronization

/// The hand-off between publishers (any thread) and the server's loop thread:
/// encoded event lines, the answers the file thread made (`Responder.Answer.later`), the
/// opening (requests held until the daemon serves) and the stop request, plus a pipe that
/// wakes the loop's `poll`.
/// Holds at most `capacity` events; more are dropped and counted for every subscriber.
///
/// - Thread: any.
final class EventInbox: Sendable {
    struct Batch {
        var events: [(kind: ControlEventKind, line: [UInt8])] = []
        var overflow = 0
        /// Response lines made off the loop's thread, for the connection with that number.
        var answers: [(connection: Int, line: [UInt8])] = []
        /// The daemon serves now: requests held since the clients connected are answered
        /// before this batch's events go out.
        var open = false
        var stop = false
    }

    static let capacity = 65_536

    private let batch = Mutex(Batch())
    /// The loop polls this end.
    let wakeReader: Int32
    private let wakeWriter: Int32

    init() throws(SocketError) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw SocketError("pipe") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        wakeReader = ends[0]
        wakeWriter = ends[1]
    }

    deinit {
        close(wakeReader)
        close(wakeWriter)
    }

    func post(_ kind: ControlEventKind, line: [UInt8]) {
        batch.withLock { batch in
            if batch.events.count < Self.capacity {
                batch.events.append((kind, line))
            } else {
                batch.overflow += 1
            }
        }
        wake()
    }

    /// Hands the loop the response line for connection number `connection`.
    func postAnswer(_ line: [UInt8], to connection: Int) {
        batch.withLock { $0.answers.append((connection, line)) }
        wake()
    }

    /// Opens the server to requests and posts `line` (the daemon's `started`) after
    /// everything posted so far, in one step: the loop answers the requests it held first.
    func open(announcing kind: ControlEventKind, line: [UInt8]) {
        batch.withLock { batch in
            batch.open = true
            batch.events.append((kind, line))
        }
        wake()
    }

    func requestStop() {
        batch.withLock { $0.stop = true }
        wake()
    }

    /// Everything posted since the last call.
    func take() -> Batch {
        batch.withLock { batch in
            defer {
                batch.events.removeAll()
                batch.overflow = 0
                batch.open = false
                batch.answers.removeAll()
            }
            return batch
        }
    }

    /// Empties the wake pipe after `poll` reported it readable.
    func drainWakeups() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wakeReader, &bytes, bytes.count) > 0 {}
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWriter, &byte, 1)
    }
}
