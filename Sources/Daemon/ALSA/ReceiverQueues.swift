import ALSA
import MIDICore

/// What midihub sends to other programs' ALSA ports, each receiver isolated from the rest.
///
/// A message goes to the kernel at once, one `write` for that receiver alone
/// (`SeqClient.outputNow`), as long as the receiving program's input has room: the kernel's
/// own count of it (`SeqClient.inputRoom`), read again whenever the messages sent since the
/// last reading may have used it up. A program that stops reading (a stopped synth, a
/// script that hangs) or reads slowly is never sent more than its input holds — the kernel
/// would refuse it, and a refusal makes the kernel empty that program's whole input the next
/// time it reads. Its messages wait in a queue of its own instead, in order, and so does
/// everything after them for it; every other receiver goes on as if nothing happened.
/// `retry` hands waiting messages over as room comes back (the owner calls it at least every
/// `retryMilliseconds` while any wait). Past `capacity` waiting messages, new ones are dropped
/// for that receiver alone and counted; `takeLosses` reports them. A device's port (a kernel
/// client, no input pool) is simply tried: a refusal queues there too. Nothing here sleeps.
///
/// - Thread: owner (the MIDI input thread), like the sequencer client it writes through.
final class ReceiverQueues {
    /// One receiver's waiting messages and what it lost.
    private struct Receiver {
        var waiting = MessageFIFO()
        /// Messages dropped since the daemon started.
        var dropped = 0
        /// `dropped` when it was last reported.
        var reported = 0
    }

    /// What midihub knows of a receiving program's input (one pool for all its ports).
    private struct Room {
        /// Events it can still take: the kernel's count when last read, less what was sent since.
        var free: Int
        /// Events kept free for other senders to that program (a sixteenth of its pool, at least 4).
        var reserve: Int
    }

    /// A receiver that lost messages since the last report.
    struct Loss: Equatable {
        let address: SeqAddress
        /// Lost since the last report.
        let new: Int
        /// Lost since the daemon started.
        let total: Int
    }

    /// Messages one receiver may have waiting; seconds of a dense controller stream.
    static let capacity = 4096
    /// How often, at least, the owner calls `retry` while messages wait.
    static let retryMilliseconds: Int32 = 1

    private let client: SeqClient
    private let port: SeqPort
    private var receivers: [SeqAddress: Receiver] = [:]
    /// Receivers with messages waiting (kept apart so `retry` never walks the idle ones).
    private var blocked: Set<SeqAddress> = []
    /// Each receiving program's input, by client number; `.some(nil)`: a kernel client (no pool).
    private var rooms: [UInt8: Room?] = [:]

    /// - Parameter port: the port messages are sent from (midihub's output port).
    init(client: SeqClient, port: SeqPort) {
        self.client = client
        self.port = port
    }

    /// Whether any receiver has messages waiting.
    var hasWaiting: Bool { !blocked.isEmpty }

    /// Sends `message` to `address` now, or queues it behind what already waits for that
    /// receiver, or when its program's input is full.
    func send(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule = .direct) {
        if blocked.contains(address) || !hasRoom(at: address.client) {
            block(address)
            enqueue(message, schedule: schedule, for: address)
            return
        }
        switch attempt(message, to: address, schedule: schedule) {
        case .sent, .failed: return
        case .full:
            block(address)
            enqueue(message, schedule: schedule, for: address)
        }
    }

    /// Hands each blocked receiver what waits for it, in order, as far as its input has room.
    func retry() {
        for address in blocked {
            // Mutated in place (`default:` subscript), so the waiting list is never copied.
            drain: while let (message, schedule) = receivers[address, default: Receiver()].waiting.first {
                guard hasRoom(at: address.client) else { break drain }
                switch attempt(message, to: address, schedule: schedule) {
                case .full: break drain
                case .sent, .failed: receivers[address, default: Receiver()].waiting.removeFirst()
                }
            }
            if receivers[address, default: Receiver()].waiting.isEmpty { blocked.remove(address) }
        }
    }

    /// Messages waiting for `address` now, and how many it lost since the daemon started.
    func status(of address: SeqAddress) -> (waiting: Int, dropped: Int) {
        guard let receiver = receivers[address] else { return (0, 0) }
        return (receiver.waiting.count, receiver.dropped)
    }

    /// The receivers that lost messages since the last call, and marks those losses reported.
    func takeLosses() -> [Loss] {
        var losses: [Loss] = []
        for (address, receiver) in receivers where receiver.dropped > receiver.reported {
            losses.append(Loss(address: address, new: receiver.dropped - receiver.reported, total: receiver.dropped))
            receivers[address]?.reported = receiver.dropped
        }
        return losses.sorted { $0.address < $1.address }
    }

    /// Forgets a receiver that left (its waiting messages have nowhere to go).
    func forget(_ address: SeqAddress) {
        blocked.remove(address)
        receivers[address] = nil
        rooms[address.client] = nil
    }

    /// Whether the program `client` can take one more message, reading its input's room from
    /// the kernel when what midihub counted is used up (or was never read).
    private func hasRoom(at client: UInt8) -> Bool {
        if let known = rooms[client] {
            guard let room = known else { return true }  // a kernel client: just try
            if room.free > room.reserve { return true }
        }
        guard let reading = try? self.client.inputRoom(ofClient: client) else {
            rooms[client] = .some(nil)
            return true
        }
        let room = Room(free: reading.free, reserve: max(4, reading.size / 16))
        rooms[client] = room
        return room.free > room.reserve
    }

    private func block(_ address: SeqAddress) {
        blocked.insert(address)
    }

    private enum Outcome { case sent, full, failed }

    private func attempt(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule) -> Outcome {
        do {
            guard try client.outputNow(message, from: port, to: address, schedule: schedule) else {
                if case .some(.some) = rooms[address.client] { rooms[address.client]??.free = 0 }
                return .full
            }
            if case .some(.some) = rooms[address.client] { rooms[address.client]??.free -= 1 }
            return .sent
        } catch {
            return .failed  // not a full receiver: the port is gone (its departure is handled as such)
        }
    }

    private func enqueue(_ message: MIDIMessage, schedule: SeqSchedule, for address: SeqAddress) {
        if receivers[address, default: Receiver()].waiting.count < Self.capacity {
            receivers[address, default: Receiver()].waiting.append((message, schedule))
        } else {
            receivers[address, default: Receiver()].dropped += 1
        }
    }
}

/// A first-in first-out list of messages with their schedules: appends at the end, removes at
/// the front in constant time (the front's storage is reclaimed once half the array is used up).
///
/// - Thread: any (a plain value).
struct MessageFIFO {
    private var items: [(MIDIMessage, SeqSchedule)] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }
    var first: (MIDIMessage, SeqSchedule)? { isEmpty ? nil : items[head] }

    mutating func append(_ item: (MIDIMessage, SeqSchedule)) {
        items.append(item)
    }

    mutating func removeFirst() {
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
