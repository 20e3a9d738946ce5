import FuzzSupport
import MIDICore
@testable import RTPMIDI

/// libFuzzer entry: decoding any bytes as an RTP-MIDI packet throws or succeeds, never
/// traps, and reads the same with its journal left unread; a decoded packet re-encodes to bytes that decode to the same packet; a
/// receiver fed the packet at hostile sequence numbers, and a sender that journals what
/// it delivers, keep their state within its bounds, the sender's reused encoding its journal's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRTPMIDI(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let journalUnread = try? RTPMIDIPacket(decoding: bytes) { _ in false }
    guard let packet = try? RTPMIDIPacket(decoding: bytes) else { return 0 }
    var withoutJournal = packet
    withoutJournal.journal = nil
    require(journalUnread == withoutJournal, "a packet read without its journal differs from the packet")
    checkRoundTrip(packet)
    checkRepair(packet, sequenceSteps: bytes)
    return 0
}

/// The packet encodes to bytes that decode to it; commands beyond the command section's
/// 4095 bytes (re-encoding SysEx with embedded real-time commands can grow it) are left out.
func checkRoundTrip(_ packet: RTPMIDIPacket) {
    let decoded: RTPMIDIPacket
    do throws(RTPMIDIDecodingError) {
        decoded = try RTPMIDIPacket(decoding: packet.encoded())
    } catch {
        fatalError("a decoded packet re-encodes to bytes that do not decode: \(error)")
    }
    let fits = CommandList.encode(packet.commands, capacity: .max).bytes.count <= RTPMIDIPacket.maximumCommandSectionLength
    var expected = packet
    if !fits { expected.commands = Array(packet.commands.prefix(decoded.commands.count)) }
    require(decoded == expected, "a decoded packet re-encodes to a different packet")
}

/// Feeds the packet to a receiver again and again, its sequence number moved by steps
/// from the input (gaps, duplicates, late ones), and journals what comes out.
func checkRepair(_ packet: RTPMIDIPacket, sequenceSteps: [UInt8]) {
    var receiver = StreamRepair(maximumSysExLength: 256)
    var sender = JournalSender()
    var sequenceNumber = packet.sequenceNumber
    for step in sequenceSteps.prefix(64) {
        var arriving = packet
        arriving.sequenceNumber = sequenceNumber
        let delivery = receiver.receive(arriving)
        // Per channel at most: a NoteOff per note, a value per controller log, bank and
        // program, pitch wheel, a NoteOn per note log; then Song Position and Continue.
        require(delivery.repair.count <= 16 * (128 + 128 + 3 + 1 + 128) + 2, "a repair of \(delivery.repair.count) messages")
        require(receiver.sysEx.bufferedLength <= 256, "a SysEx buffer of \(receiver.sysEx.bufferedLength) bytes")
        require(receiver.packetsRepaired <= receiver.packetsLost, "more packets repaired than lost")
        checkReusedEncoding(&sender)
        for message in delivery.repair + delivery.commands.map(\.message) {
            sender.record(message, sequenceNumber: sequenceNumber)
        }
        if step & 0x80 != 0 { sender.acknowledge(through: sequenceNumber &- UInt16(step & 0x07)) }
        sequenceNumber &+= UInt16(step) &- 0x20
    }
    guard let journal = sender.journal() else { return }
    let carrier = RTPMIDIPacket(sequenceNumber: sequenceNumber, timestamp: 0, ssrc: 0, commands: [], journal: journal)
    require((try? RTPMIDIPacket(decoding: carrier.encoded()))?.journal == journal, "a sender's journal does not round-trip")
}

/// The journal bytes a sender writes per packet, each channel's reused while it holds,
/// are its journal's own encoding.
func checkReusedEncoding(_ sender: inout JournalSender) {
    var reused: [UInt8] = [], expected: [UInt8] = []
    let wrote = sender.encodeJournal(into: &reused)
    sender.journal()?.encode(into: &expected)
    require(wrote == !expected.isEmpty && reused == expected, "a sender's reused journal encoding differs from its journal's")
}
