import MIDICore

/// The sending side of one session's recovery journal (RFC 6295 §4, RFC 4696's
/// closed-loop policy): records what each packet carries, and journals the state the
/// peer may have missed since the checkpoint, which moves forward as the peer's
/// receiver feedback (RS) acknowledges packets. Bounded: 16 channels × 128 notes and
/// 128 controllers, and a history no longer than `maximumHistory` packets.
///
/// Use per packet: write `encodeJournal(into:)` in the packet, then `record` its commands
/// with its sequence number.
///
/// - Thread: any (a value); the session's owner keeps it.
public struct JournalSender: Sendable {
    /// Without feedback, the checkpoint still moves to stay this many packets back,
    /// the journal keeping what it held (so sequence numbers never wrap inside it).
    public static let maximumHistory = 0x2000

    private var channels = [ChannelHistory](repeating: ChannelHistory(), count: 16)
    private var sequencer = SequencerHistory()
    /// The packet before the first the journal covers; nil before the first `record`.
    private var checkpoint: UInt16?
    private var latest: UInt16?

    public init() {}

    /// Adds `message`, sent in packet `sequenceNumber`, to the history.
    ///
    /// - Thread: any (a value).
    public mutating func record(_ message: MIDIMessage, sequenceNumber: UInt16) {
        if checkpoint == nil { checkpoint = sequenceNumber &- 1 }
        latest = sequenceNumber
        if let channel = message.channel {
            channels[Int(channel & 0x0F)].record(message, sequenceNumber: sequenceNumber)
        } else {
            sequencer.record(message, sequenceNumber: sequenceNumber)
        }
        keepHistoryShort(endingAt: sequenceNumber)
    }

    /// The journal for the next packet, nil when nothing was sent since the checkpoint:
    /// what `encodeJournal(into:)` writes, as a value (for the tests to read).
    ///
    /// - Thread: any (a value).
    func journal() -> RecoveryJournal? {
        guard let checkpoint, let latest else { return nil }
        let channelJournals = channels.enumerated().compactMap { channel, history in
            history.journal(channel: UInt8(channel), previous: latest)
        }
        let system = sequencer.journal(previous: latest)
        guard !channelJournals.isEmpty || system != nil else { return nil }
        return RecoveryJournal(checkpoint: checkpoint, channels: channelJournals, system: system)
    }

    /// Appends the journal for the next packet: the bytes `journal()` encodes, each
    /// channel's reused while it holds. Returns false, appending nothing, when there is none.
    ///
    /// - Thread: any (a value).
    public mutating func encodeJournal(into out: inout [UInt8]) -> Bool {
        guard let checkpoint, let latest else { return false }
        let start = out.count
        out.append(0)
        out.appendBigEndian(checkpoint)
        let system = sequencer.journal(previous: latest)
        system?.encode(into: &out)
        var channelCount = 0, anyInPreviousPacket = system?.anyInPreviousPacket ?? false
        for index in channels.indices {
            let encoded = channels[index].appendJournal(channel: UInt8(index), previous: latest, to: &out)
            if !encoded.bytes.isEmpty { channelCount += 1 }
            anyInPreviousPacket = anyInPreviousPacket || encoded.anyInPreviousPacket
        }
        guard channelCount > 0 || system != nil else {
            out.removeSubrange(start...)
            return false
        }
        out[start] = RecoveryJournal.firstByte(anyInPreviousPacket: anyInPreviousPacket, hasSystemJournal: system != nil,
                                               channelCount: channelCount)
        return true
    }

    /// The peer received every packet through `sequenceNumber` (its RS): the checkpoint
    /// moves there and the history before it goes. An acknowledgement behind the
    /// checkpoint changes nothing; one past the latest packet recorded counts as that one.
    ///
    /// - Thread: any (a value).
    public mutating func acknowledge(through sequenceNumber: UInt16) {
        guard let checkpoint, let latest, SequenceNumber.distance(from: checkpoint, to: sequenceNumber) > 0 else { return }
        let acknowledged = SequenceNumber.distance(from: sequenceNumber, to: latest) < 0 ? latest : sequenceNumber
        self.checkpoint = acknowledged
        restamp { SequenceNumber.distance(from: acknowledged, to: $0) > 0 ? $0 : nil }
    }

    /// Moves the checkpoint to `maximumHistory` packets back when it falls further
    /// behind, the older entries kept as if sent just after it.
    private mutating func keepHistoryShort(endingAt newest: UInt16) {
        guard let checkpoint, SequenceNumber.distance(from: checkpoint, to: newest) > 2 * Self.maximumHistory else { return }
        let moved = newest &- UInt16(Self.maximumHistory)
        self.checkpoint = moved
        restamp { SequenceNumber.distance(from: moved, to: $0) > 0 ? $0 : moved &+ 1 }
    }

    private mutating func restamp(_ change: (UInt16) -> UInt16?) {
        for index in channels.indices { channels[index].restamp(change) }
        sequencer.restamp(change)
    }
}
