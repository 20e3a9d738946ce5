import ALSA
import MIDICore

/// What midihub sends to other programs' ALSA ports, each receiver isolated from the rest.
///
/// A message goes to the kernel at once, one `write` for that receiver alone
/// (`SeqClient.outputNow`), as long as the receiving program's input has room: the kernel's
/// own count of it (`SeqClient.inputRoom`), read again whenever the messages sent since the
/// last reading may have used it up. Inside a batch (`beginBatch`…`endBatch`, the owner's
/// routing of one burst of input) the messages are buffered instead and handed over in one
/// `write` for all receivers (`ReceiverQueues+Batch.swift`); the kernel stops at a message
/// it refuses, and that receiver's messages from there on wait in its queue as above. A program that stops reading (a stopped synth, a
/// script that hangs) or reads slowly is never sent more than its input holds — the kernel
/// would refuse it, and a refusal makes the kernel empty that program's whole input the next
/// time it reads. Its messages wait in a queue of its own instead, in order, and so does
/// everything after them for it; every other receiver goes on as if nothing happened.
/// `retry` hands waiting messages over as room comes back (the owner calls it at least every
/// `retryMilliseconds` while any wait). Past `capacity` waiting messages, new ones are dropped
/// for that receiver alone and counted; `takeLosses` reports them. A device's port (a kernel
/// client, no input pool) is simply tried: a refusal queues there too. Nothing here sleeps.
///
/// A receiver that takes nothing for `giveUpAfter` while messages wait for it is given up on
/// (`Change.gaveUp`, the daemon's `node-gone` with `overloaded`): what waits is discarded —
/// a program that wakes after a minute gets no minute of stale notes — and what comes for it
/// after is dropped and counted, not queued. Once a second the hub looks at its input; when
/// the program reads again it gets sustain off and all-notes-off on every channel whose
/// messages it lost (no note it missed the end of keeps sounding), then MIDI as before
/// (`Change.readsAgain`).
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
        /// While messages wait for it: when it last took one, or when they began to wait.
        var lastTaken = HostTime.distantPast
        /// Channels whose messages it lost since it was given up on (bit n: channel n, 0-based).
        var lostChannels: UInt16 = 0
    }

    /// A receiver given up on, or back.
    enum Change: Equatable {
        /// It took nothing for `giveUpAfter`; `discarded` messages that waited for it are lost.
        case gaveUp(SeqAddress, discarded: Int)
        /// It reads again (it was sent the all-notes-off of the channels it lost).
        case readsAgain(SeqAddress)
    }

    /// What midihub knows of a receiving program's input (one pool for all its ports).
    private struct Room {
        /// Events it can still take: the kernel's count when last read, less what was sent since.
        var free: Int
        /// Events kept free for other senders to that program (a sixteenth of its pool, at least 4).
        var reserve: Int
    }

    /// What is known of one program's input room.
    private enum RoomReading {
        case unread
        /// A kernel client (no pool): just try.
        case kernelClient
        case known(Room)
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
    /// How often a receiver given up on is looked at again.
    static let lookAgainAfter: HostDuration = 1

    let client: SeqClient
    let port: SeqPort
    private var receivers: [SeqAddress: Receiver] = [:]
    /// Receivers with messages waiting (kept apart so `retry` never walks the idle ones).
    private(set) var blocked: Set<SeqAddress> = []
    /// Each receiving program's input, by client number (all 256: no hashing per message).
    private var rooms = [RoomReading](repeating: .unread, count: 256)
    /// Whether messages are buffered for one `write` (`beginBatch`), and those buffered so far.
    var batching = false
    var buffered = ContiguousArray<BufferedMessage>()
    /// Receivers given up on, and when each was last looked at.
    private var givenUp: [SeqAddress: HostTime] = [:]
    /// Give-ups and returns not yet taken by the daemon (`takeChanges`).
    private var changes: [Change] = []
    /// How long a receiver may take nothing while messages wait before it is given up on.
    let giveUpAfter: HostDuration

    /// - Parameters:
    ///   - port: the port messages are sent from (midihub's output port).
    ///   - giveUpAfter: how long a receiver may take nothing while messages wait for it.
    init(client: SeqClient, port: SeqPort, giveUpAfter: HostDuration) {
        self.client = client
        self.port = port
        self.giveUpAfter = giveUpAfter
    }

    /// Whether any receiver has messages waiting.
    var hasWaiting: Bool { !blocked.isEmpty }

    /// Sends `message` to `address` now, or queues it behind what already waits for that
    /// receiver, or when its program's input is full.
    func send(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule = .direct) {
        if !givenUp.isEmpty, givenUp[address] != nil {
            lose(message, for: address)
            return
        }
        // `hasRoom` may deliver a batch's buffer, in which the kernel may refuse this receiver.
        if isBlocked(address) || !hasRoom(at: address.client) || isBlocked(address) {
            block(address)
            enqueue(message, schedule: schedule, for: address)
            return
        }
        if batching {
            buffer(BufferedMessage(message: message, address: address, schedule: schedule, bytes: 0))
            return
        }
        switch attempt(message, to: address, schedule: schedule) {
        case .sent, .failed: return
        case .full: refused(message, schedule: schedule, for: address)
        }
    }

    /// `message` was refused for room: `address` is blocked, the message waits for it first.
    func refused(_ message: MIDIMessage, schedule: SeqSchedule, for address: SeqAddress) {
        setFree(0, of: address.client)
        block(address)
        enqueue(message, schedule: schedule, for: address)
    }

    /// Counts one message sent to the program `client` against its input's room.
    func used(roomAt client: UInt8) {
        if case .known(let room) = rooms[Int(client)] { setFree(room.free - 1, of: client) }
    }

    /// Counts `free` events of room at `client`, when its room is known.
    private func setFree(_ free: Int, of client: UInt8) {
        guard case .known(var room) = rooms[Int(client)] else { return }
        room.free = free
        rooms[Int(client)] = .known(room)
    }

    /// Hands each blocked receiver what waits for it, in order, as far as its input has room;
    /// gives up on one that took nothing for `giveUpAfter`, and looks again at those given up
    /// on once a second.
    func retry(now: HostTime? = nil) {
        guard !blocked.isEmpty || !givenUp.isEmpty else { return }
        let now = now ?? .now()
        for address in blocked {
            // Mutated in place (`default:` subscript), so the waiting list is never copied.
            drain: while let (message, schedule) = receivers[address, default: Receiver()].waiting.first {
                guard hasRoom(at: address.client) else { break drain }
                switch attempt(message, to: address, schedule: schedule) {
                case .full: break drain
                case .sent, .failed:
                    receivers[address, default: Receiver()].waiting.removeFirst()
                    receivers[address, default: Receiver()].lastTaken = now
                }
            }
            if receivers[address, default: Receiver()].waiting.isEmpty {
                blocked.remove(address)
            } else if now - receivers[address, default: Receiver()].lastTaken >= giveUpAfter {
                giveUp(on: address, at: now)
            }
        }
        for (address, lookedAt) in givenUp where now - lookedAt >= Self.lookAgainAfter {
            givenUp[address] = now
            rooms[Int(address.client)] = .unread  // read the kernel's count afresh
            if hasRoom(at: address.client) { takeBack(address) }
        }
    }

    /// Whether `address` is given up on now.
    func hasGivenUp(on address: SeqAddress) -> Bool {
        givenUp[address] != nil
    }

    /// The give-ups and returns since the last call.
    func takeChanges() -> [Change] {
        defer { changes.removeAll() }
        return changes
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
        givenUp[address] = nil
        receivers[address] = nil
        rooms[Int(address.client)] = .unread
    }

    /// Whether the program `client` can take one more message, reading its input's room from
    /// the kernel when what midihub counted is used up (or was never read).
    private func hasRoom(at client: UInt8) -> Bool {
        switch rooms[Int(client)] {
        case .kernelClient: return true
        case .known(let room) where room.free > room.reserve: return true
        case .known, .unread: break
        }
        // What a batch buffered is not in the kernel's count yet: it goes first.
        deliverBuffered()
        guard let reading = try? self.client.inputRoom(ofClient: client) else {
            rooms[Int(client)] = .kernelClient
            return true
        }
        let room = Room(free: reading.free, reserve: max(4, reading.size / 16))
        rooms[Int(client)] = .known(room)
        return room.free > room.reserve
    }

    /// Whether messages for `address` wait (a hash only while some receiver is blocked).
    private func isBlocked(_ address: SeqAddress) -> Bool {
        !blocked.isEmpty && blocked.contains(address)
    }

    func block(_ address: SeqAddress) {
        if blocked.insert(address).inserted { receivers[address, default: Receiver()].lastTaken = .now() }
    }

    /// Discards what waits for `address` (counted lost) and drops what comes for it from now.
    private func giveUp(on address: SeqAddress, at now: HostTime) {
        var receiver = receivers[address, default: Receiver()]
        let discarded = receiver.waiting.count
        while let (message, _) = receiver.waiting.first {
            receiver.lostChannels |= Self.channelBit(of: message)
            receiver.waiting.removeFirst()
        }
        receiver.dropped += discarded
        receivers[address] = receiver
        blocked.remove(address)
        givenUp[address] = now
        changes.append(.gaveUp(address, discarded: discarded))
    }

    /// A receiver given up on reads again: the notes it lost the end of are ended, then it
    /// is sent to as before.
    private func takeBack(_ address: SeqAddress) {
        givenUp[address] = nil
        let lost = receivers[address, default: Receiver()].lostChannels
        receivers[address, default: Receiver()].lostChannels = 0
        for channel in UInt8(0)..<16 where lost & (1 << channel) != 0 {
            send(.controlChange(channel: channel, controller: 64, value: 0), to: address)  // sustain off
            send(.controlChange(channel: channel, controller: 123, value: 0), to: address)  // all notes off
        }
        changes.append(.readsAgain(address))
    }

    /// Counts `message` lost for `address` (a receiver given up on).
    private func lose(_ message: MIDIMessage, for address: SeqAddress) {
        receivers[address, default: Receiver()].dropped += 1
        receivers[address, default: Receiver()].lostChannels |= Self.channelBit(of: message)
    }

    /// The bit of `message`'s channel in `Receiver.lostChannels`; 0 for a system message.
    private static func channelBit(of message: MIDIMessage) -> UInt16 {
        message.channel.map { 1 << UInt16($0 & 0x0F) } ?? 0
    }

    private enum Outcome { case sent, full, failed }

    private func attempt(_ message: MIDIMessage, to address: SeqAddress, schedule: SeqSchedule) -> Outcome {
        do {
            guard try client.outputNow(message, from: port, to: address, schedule: schedule) else {
                setFree(0, of: address.client)
                return .full
            }
            used(roomAt: address.client)
            return .sent
        } catch {
            return .failed  // not a full receiver: the port is gone (its departure is handled as such)
        }
    }

    func enqueue(_ message: MIDIMessage, schedule: SeqSchedule, for address: SeqAddress) {
        if receivers[address, default: Receiver()].waiting.count < Self.capacity {
            receivers[address, default: Receiver()].waiting.append((message, schedule))
        } else {
            receivers[address, default: Receiver()].dropped += 1
        }
    }
}
