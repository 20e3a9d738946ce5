import MIDICore
import Testing
@testable import RTPMIDI

/// A sender and a receiver joined by a link that loses the packets it is told to: each
/// packet carries the sender's journal and goes through its bytes.
struct LossyLink {
    var sender = JournalSender()
    var receiver = StreamRepair()
    var sequenceNumber: UInt16 = 100

    /// Sends `messages` in one packet; what the receiver makes of it, nil when lost.
    @discardableResult
    mutating func send(_ messages: [MIDIMessage], lost: Bool = false) throws -> RTPMIDIDelivery? {
        let packet = RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: UInt32(sequenceNumber) * 10, ssrc: 7,
                                   commands: messages.map { RTPMIDICommand(message: $0) }, journal: sender.journal())
        let bytes = packet.encoded { sender.encodeJournal(into: &$0) }
        #expect(bytes == packet.encoded(), "the journal's reused encoding says what the journal does")
        for message in messages { sender.record(message, sequenceNumber: sequenceNumber) }
        sequenceNumber &+= 1
        return lost ? nil : try receiver.receive(datagram: bytes).get()
    }
}

@Suite struct StreamRepairTests {
    @Test func aLostNoteOffIsRepaired() throws {
        var link = LossyLink()
        try link.send([.noteOn(channel: 0, note: 60, velocity: 100)])
        #expect(link.receiver.soundingNotes(channel: 0) == NoteSet([60]))
        try link.send([.noteOff(channel: 0, note: 60, velocity: 0)], lost: true)
        let delivery = try #require(try link.send([.controlChange(channel: 0, controller: 1, value: 3)]))
        #expect(delivery.lost == 1)
        #expect(delivery.repair == [.noteOff(channel: 0, note: 60, velocity: 0)])
        #expect(link.receiver.soundingNotes(channel: 0).isEmpty)
        #expect(link.receiver.packetsLost == 1 && link.receiver.packetsRepaired == 1)
    }

    @Test func lostNotesComeBackInTheOrderTheyWerePlayed() throws {
        var link = LossyLink()
        let played: [UInt8] = [67, 60, 64, 48]  // an arpeggio down and up, not in key order
        try link.send([.noteOn(channel: 0, note: 67, velocity: 90), .noteOn(channel: 0, note: 60, velocity: 91)], lost: true)
        try link.send([.noteOn(channel: 0, note: 64, velocity: 92)], lost: true)
        try link.send([.noteOn(channel: 0, note: 48, velocity: 93)], lost: true)
        let delivery = try #require(try link.send([.controlChange(channel: 0, controller: 1, value: 3)]))
        #expect(delivery.repair == zip(played, UInt8(90)...).map { .noteOn(channel: 0, note: $0, velocity: $1) })
    }

    @Test func aReplayedNoteTakesItsLatestPlaceInTheOrder() throws {
        var link = LossyLink()
        try link.send([.noteOn(channel: 0, note: 60, velocity: 90), .noteOn(channel: 0, note: 62, velocity: 90)], lost: true)
        try link.send([.noteOff(channel: 0, note: 60, velocity: 0), .noteOn(channel: 0, note: 60, velocity: 80)], lost: true)
        let delivery = try #require(try link.send([]))
        #expect(delivery.repair == [.noteOn(channel: 0, note: 62, velocity: 90), .noteOn(channel: 0, note: 60, velocity: 80)])
    }

    @Test func theSessionsLostFirstPacketsAreRepairedFromTheFirstJournalThatArrives() throws {
        var link = LossyLink()
        // The song's opening: a program and a volume, lost before anything reached the receiver.
        try link.send([.programChange(channel: 1, program: 33), .controlChange(channel: 1, controller: 7, value: 104)], lost: true)
        try link.send([.noteOn(channel: 1, note: 40, velocity: 90)], lost: true)
        let delivery = try #require(try link.send([.noteOff(channel: 1, note: 40, velocity: 0)]))
        #expect(delivery.lost == 2)
        #expect(delivery.repair.contains(.programChange(channel: 1, program: 33)))
        #expect(delivery.repair.contains(.controlChange(channel: 1, controller: 7, value: 104)))
        #expect(link.receiver.packetsLost == 2 && link.receiver.packetsRepaired == 2)
    }

    @Test func aFirstPacketWithNothingBeforeItRepairsNothing() throws {
        var link = LossyLink()
        let delivery = try #require(try link.send([.noteOn(channel: 0, note: 60, velocity: 100)]))
        #expect(delivery.lost == 0 && delivery.repair.isEmpty)
        #expect(link.receiver.packetsLost == 0)
    }

    @Test func aLostControllerChangeTakesItsFinalValue() throws {
        var link = LossyLink()
        try link.send([.controlChange(channel: 4, controller: 7, value: 10)])
        try link.send([.controlChange(channel: 4, controller: 7, value: 50)], lost: true)
        try link.send([.controlChange(channel: 4, controller: 7, value: 90)], lost: true)
        let delivery = try #require(try link.send([.clock]))
        #expect(delivery.lost == 2)
        #expect(delivery.repair == [.controlChange(channel: 4, controller: 7, value: 90)])
    }

    @Test func aLostProgramChangeIsRepairedWithItsBank() throws {
        var link = LossyLink()
        try link.send([.programChange(channel: 1, program: 1)])
        try link.send([.controlChange(channel: 1, controller: 0, value: 2), .programChange(channel: 1, program: 9)], lost: true)
        let delivery = try #require(try link.send([.clock]))
        // Chapter C's bank select MSB, then chapter P's LSB and program.
        #expect(delivery.repair == [
            .controlChange(channel: 1, controller: 0, value: 2),
            .controlChange(channel: 1, controller: 32, value: 0),
            .programChange(channel: 1, program: 9),
        ])
    }

    @Test func aLostPitchBendIsRepaired() throws {
        var link = LossyLink()
        try link.send([.pitchBend(channel: 2, value: 8192)])
        try link.send([.pitchBend(channel: 2, value: 12000)], lost: true)
        let delivery = try #require(try link.send([.noteOn(channel: 2, note: 40, velocity: 1)]))
        #expect(delivery.repair == [.pitchBend(channel: 2, value: 12000)])
        #expect(delivery.commands == [RTPMIDICommand(message: .noteOn(channel: 2, note: 40, velocity: 1))])
    }

    @Test func aLostStopStopsTheReceiver() throws {
        var link = LossyLink()
        try link.send([.start])
        try link.send([.stop], lost: true)
        #expect(try link.send([.noteOn(channel: 0, note: 1, velocity: 1)])?.repair == [.stop])
    }

    @Test func aNoteThatStartedInTheLossIsPlayed() throws {
        var link = LossyLink()
        try link.send([.clock])
        try link.send([.noteOn(channel: 3, note: 64, velocity: 70)], lost: true)
        #expect(try link.send([.clock])?.repair == [.noteOn(channel: 3, note: 64, velocity: 70)])
    }

    @Test func noLossNoRepair() throws {
        var link = LossyLink()
        for message: MIDIMessage in [.noteOn(channel: 0, note: 60, velocity: 100), .controlChange(channel: 0, controller: 7, value: 3),
                                     .programChange(channel: 0, program: 4), .pitchBend(channel: 0, value: 1), .noteOff(channel: 0, note: 60, velocity: 0)] {
            let delivery = try #require(try link.send([message]))
            #expect(delivery.repair.isEmpty && delivery.lost == 0)
            #expect(delivery.commands == [RTPMIDICommand(message: message)])
        }
        #expect(link.receiver.packetsLost == 0 && link.receiver.packetsRepaired == 0)
    }

    @Test func duplicateAndLatePacketsAreDropped() throws {
        var receiver = StreamRepair()
        func packet(_ sequenceNumber: UInt16) -> RTPMIDIPacket {
            RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: 0, ssrc: 0, commands: [RTPMIDICommand(message: .clock)])
        }
        #expect(receiver.receive(packet(65535)).commands.count == 1)
        #expect(receiver.receive(packet(1)).lost == 1)  // across the wrap
        #expect(receiver.receive(packet(1)).commands.isEmpty)
        #expect(receiver.receive(packet(0)).commands.isEmpty)
        #expect(receiver.packetsLate == 2 && receiver.packetsLost == 1 && receiver.packetsRepaired == 0)
        // Far behind: the sender started again.
        #expect(receiver.receive(packet(40_000)).commands.count == 1)
        #expect(receiver.receive(packet(40_001)).lost == 0)
        #expect(receiver.packetsLate == 2 && receiver.packetsLost == 1)
    }

    @Test func malformedDatagramsAreCounted() throws {
        var receiver = StreamRepair()
        #expect(throws: RTPMIDIDecodingError.truncatedHeader) { try receiver.receive(datagram: [0x80, 0x61]).get() }
        #expect(receiver.packetsMalformed == 1)
    }

    /// A journal is read only after a loss (or in the first packet): one that does not
    /// decode costs nothing in order, and drops its packet after a gap.
    @Test func aJournalIsReadOnlyWhenAPacketIsMissing() throws {
        func datagram(_ sequenceNumber: UInt16) -> [UInt8] {
            var bytes = RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: 0, ssrc: 7,
                                      commands: [RTPMIDICommand(message: .clock)]).encoded()
            bytes[12] |= 0x40  // J: a journal follows, and only two bytes of it do
            return bytes + [0x20, 0x00]
        }
        var receiver = StreamRepair()
        var sender = JournalSender()
        sender.record(.noteOn(channel: 0, note: 60, velocity: 1), sequenceNumber: 1)
        let first = RTPMIDIPacket(sequenceNumber: 2, timestamp: 0, ssrc: 7, commands: []).encoded { sender.encodeJournal(into: &$0) }
        #expect(try receiver.receive(datagram: first).get().repair == [.noteOn(channel: 0, note: 60, velocity: 1)])
        #expect(try receiver.receive(datagram: datagram(3)).get().commands == [RTPMIDICommand(message: .clock)])
        #expect(throws: RTPMIDIDecodingError.self) { try receiver.receive(datagram: datagram(5)).get() }
        #expect(receiver.packetsMalformed == 1 && receiver.lastSequenceNumber == 3)
    }

    @Test func sysExSegmentsAreReassembledAndBounded() {
        var receiver = StreamRepair(maximumSysExLength: 4)
        var sequenceNumber: UInt16 = 0
        func deliver(_ commands: [RTPMIDICommand]) -> [RTPMIDICommand] {
            defer { sequenceNumber += 1 }
            return receiver.receive(RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: 0, ssrc: 0, commands: commands)).commands
        }
        let segments = RTPMIDICommand.sysExSegments([1, 2, 3, 4], maximumSegmentLength: 2, delta: 5)
        #expect(deliver([segments[0]]).isEmpty)
        #expect(receiver.sysEx.bufferedLength == 2)
        // The whole SysEx comes at its last segment's time.
        #expect(deliver([segments[1], RTPMIDICommand(delta: 1, message: .clock)]) == [
            RTPMIDICommand(message: .sysEx([1, 2, 3, 4])), RTPMIDICommand(delta: 1, message: .clock),
        ])
        let tooLong = RTPMIDICommand.sysExSegments([1, 2, 3, 4, 5], maximumSegmentLength: 2)
        #expect(deliver(tooLong).isEmpty)
        #expect(receiver.sysEx.bufferedLength == 0)
        #expect(deliver([RTPMIDICommand(message: .sysEx([1]), sysExSegment: .first),
                         RTPMIDICommand(message: .sysEx([]), sysExSegment: .cancel)]).isEmpty)
        #expect(receiver.sysExDropped == 2)
        // A loss in the middle of one drops it.
        #expect(deliver([segments[0]]).isEmpty)
        sequenceNumber += 1
        #expect(deliver([segments[1]]).isEmpty)
        #expect(receiver.sysExDropped == 3)
    }
}
