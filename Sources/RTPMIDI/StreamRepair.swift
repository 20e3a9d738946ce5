import MIDICore

/// The receiving side of one session: each arriving packet in, the MIDI to play out.
/// Drops duplicate and late packets, counts the lost ones, and after a loss repairs the
/// stream from the packet's recovery journal (RFC 6295 §4): the notes that ended in the
/// loss end here too, controllers, programs and pitch wheels take the sender's values,
/// the sequencer stops or continues. Reassembles SysEx segments (at most
/// `maximumSysExLength` bytes). Bounded: fixed-size state whatever the packets say.
///
/// - Thread: any (a value); the session's owner keeps it.
public struct StreamRepair: Sendable {
    public static let defaultMaximumSysExLength = 64 * 1024
    /// A packet at most this many behind the newest is late (dropped); one further
    /// behind means the sender's numbers started again, and the stream follows them.
    public static let maximumMisorder = 100

    /// Packets that never arrived (gaps in the sequence numbers).
    public private(set) var packetsLost = 0
    /// Lost packets whose loss a journal covered.
    public private(set) var packetsRepaired = 0
    /// Packets dropped because their bytes did not decode (`receive(datagram:)`).
    public private(set) var packetsMalformed = 0
    /// Packets dropped as duplicates or as later than a newer one.
    public private(set) var packetsLate = 0
    /// SysEx messages dropped: over the limit, cancelled, or broken by a loss.
    public var sysExDropped: Int { sysEx.dropped }

    private(set) var expected: UInt16?
    private var state = ReceiverState()
    private(set) var sysEx: SysExAssembly

    public init(maximumSysExLength: Int = defaultMaximumSysExLength) {
        sysEx = SysExAssembly(maximumLength: maximumSysExLength)
    }

    /// The notes this side has sounding on `channel` (0…15).
    ///
    /// - Thread: any (a value).
    public func soundingNotes(channel: UInt8) -> NoteSet { state.soundingNotes(channel: channel) }

    /// Decodes `datagram` and receives it; a malformed one is counted and dropped
    /// (`.failure`, with what was wrong).
    ///
    /// - Thread: any (a value).
    public mutating func receive(datagram: some Collection<UInt8>) -> Result<RTPMIDIDelivery, RTPMIDIDecodingError> {
        decode(datagram: datagram).map { receive($0) }
    }

    /// Decodes `datagram` as this receiver needs it: its recovery journal only when packets
    /// are missing before it (or it is the first), the only time a repair reads one — most
    /// packets arrive in order, and reading a journal costs ten times the rest. A malformed
    /// packet is counted (`.failure`, with what was wrong).
    ///
    /// - Thread: any (a value).
    public mutating func decode(datagram: some Collection<UInt8>) -> Result<RTPMIDIPacket, RTPMIDIDecodingError> {
        let expected = expected
        do throws(RTPMIDIDecodingError) {
            return .success(try RTPMIDIPacket(decoding: datagram) { sequenceNumber in
                expected.map { SequenceNumber.distance(from: $0, to: sequenceNumber) > 0 } ?? true
            })
        } catch {
            packetsMalformed += 1
            return .failure(error)
        }
    }

    /// Packets sent before the first that arrived, which its journal covers: the session's
    /// first packets can be lost too (the song's opening controllers and programs), and a
    /// journal whose checkpoint is not the packet just before says there were some.
    private static func missedBeforeFirst(_ packet: RTPMIDIPacket) -> Int {
        guard let journal = packet.journal else { return 0 }
        return max(0, SequenceNumber.distance(from: journal.checkpoint, to: packet.sequenceNumber) - 1)
    }

    /// What `packet` brings: the repair to play first (after a loss, from its journal),
    /// then its commands (SysEx segments reassembled, deltas kept), and how many packets
    /// were lost before it. A duplicate or late packet brings nothing (see `maximumMisorder`).
    ///
    /// - Thread: any (a value).
    public mutating func receive(_ packet: RTPMIDIPacket) -> RTPMIDIDelivery {
        var lost = expected.map { SequenceNumber.distance(from: $0, to: packet.sequenceNumber) }
            ?? Self.missedBeforeFirst(packet)
        if lost < -Self.maximumMisorder {
            lost = 0  // the sender started again (RFC 3550 A.1): follow its new numbers
        } else if lost < 0 {
            packetsLate += 1
            return RTPMIDIDelivery(repair: [], commands: [], lost: 0)
        }
        expected = packet.sequenceNumber &+ 1
        var repair: [MIDIMessage] = []
        if lost > 0 {
            packetsLost += lost
            sysEx.abandon()
            if let journal = packet.journal {
                packetsRepaired += lost
                repair = state.repair(from: journal)
            }
        }
        var commands: [RTPMIDICommand] = []
        var carriedDelta: UInt32 = 0
        for command in packet.commands {
            carriedDelta = carriedDelta &+ command.delta
            guard let message = sysEx.take(command) else { continue }
            state.apply(message)
            commands.append(RTPMIDICommand(delta: carriedDelta, message: message))
            carriedDelta = 0
        }
        return RTPMIDIDelivery(repair: repair, commands: commands, lost: lost)
    }
}

/// What one received packet brings (`StreamRepair.receive`).
///
/// - Thread: any (a value).
public struct RTPMIDIDelivery: Hashable, Sendable {
    /// Messages to play before `commands`, at the packet's time: the repair after a loss.
    public var repair: [MIDIMessage]
    /// The packet's commands, whole SysEx messages only.
    public var commands: [RTPMIDICommand]
    /// Packets lost just before this one.
    public var lost: Int

    public init(repair: [MIDIMessage], commands: [RTPMIDICommand], lost: Int) {
        self.repair = repair
        self.commands = commands
        self.lost = lost
    }
}
