import Foundation
import MIDICore
import RTPMIDI
import Testing
import TestSupport

/// The packets midihub sends parse in a peer no one here wrote: pymidi's packet
/// definitions (which read delta times as little-endian VarInts and ignore Z, so
/// one-byte deltas and Z=0 are what they need).
@Suite struct PymidiCompatibilityTests {
    static let python = "/opt/pymidi-venv/bin/python"
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pymidi_parse.py")

    /// What pymidi reads of `bytes`, one line per command and the journal's header.
    func pymidiReading(_ bytes: [UInt8]) throws -> [String] {
        try #require(FileManager.default.isExecutableFile(atPath: Self.python),
                     "pymidi is not installed at /opt/pymidi-venv: run scripts/install-deps")
        let hex = bytes.map { String($0, radix: 16) }.map { $0.count < 2 ? "0" + $0 : $0 }.joined()
        let run = try ShellScript.run("\(Self.python) '\(Self.script.path)' \(hex)", in: Self.script.deletingLastPathComponent())
        try #require(run.status == 0, "pymidi failed: \(run.output)")
        return run.output.split(separator: "\n").map(String.init)
    }

    static let commands: [RTPMIDICommand] = [
        RTPMIDICommand(message: .noteOn(channel: 0, note: 60, velocity: 100)),
        RTPMIDICommand(delta: 12, message: .noteOn(channel: 0, note: 64, velocity: 90)),
        RTPMIDICommand(delta: 127, message: .controlChange(channel: 0, controller: 64, value: 127)),
        RTPMIDICommand(delta: 0, message: .controlChange(channel: 0, controller: 1, value: 20)),
        RTPMIDICommand(delta: 3, message: .noteOff(channel: 0, note: 48, velocity: 0)),
    ]
    static let commandLines = [
        "note_on 0 60 100", "note_on 0 64 90", "control_mode_change 0 64 127", "control_mode_change 0 1 20", "note_off 0 48 0",
    ]

    /// A sender's journal of notes, a controller, a program and the pitch wheel.
    static func channelHistory() -> JournalSender {
        var sender = JournalSender()
        sender.record(.noteOn(channel: 0, note: 48, velocity: 90), sequenceNumber: 499)
        sender.record(.controlChange(channel: 0, controller: 7, value: 100), sequenceNumber: 499)
        sender.record(.programChange(channel: 0, program: 3), sequenceNumber: 499)
        sender.record(.pitchBend(channel: 0, value: 9000), sequenceNumber: 499)
        return sender
    }

    @Test func aPacketWithAChannelJournalParsesInPymidi() throws {
        var sender = Self.channelHistory()
        let packet = RTPMIDIPacket(sequenceNumber: 500, timestamp: 123_456, ssrc: 0x1234_5678, commands: Self.commands)
        let reading = try pymidiReading(packet.encoded { sender.encodeJournal(into: &$0) })
        #expect(reading == Self.commandLines + ["journal 498 system 0 channels 1 1", "channel 0 length 15 chapters pcwn"])
    }

    /// pymidi takes the S bit for Y: with a system journal and S=0 it reads the journals
    /// wrongly, but the commands still reach it.
    @Test func aPacketWithASystemJournalKeepsItsCommandsInPymidi() throws {
        var sender = Self.channelHistory()
        sender.record(.start, sequenceNumber: 499)
        let packet = RTPMIDIPacket(sequenceNumber: 500, timestamp: 123_456, ssrc: 0x1234_5678, commands: Self.commands)
        let reading = try pymidiReading(packet.encoded { sender.encodeJournal(into: &$0) })
        #expect(Array(reading.prefix(6)) == Self.commandLines + ["journal 498 system 1 channels 1 1"])
    }

    @Test func aPacketWithoutAJournalParsesInPymidi() throws {
        let packet = RTPMIDIPacket(sequenceNumber: 1, timestamp: 0, ssrc: 1,
                                   commands: [RTPMIDICommand(message: .noteOff(channel: 9, note: 36, velocity: 64))])
        let reading = try pymidiReading(packet.encoded())
        #expect(reading == ["note_off 9 36 64", "journal none"])
    }
}
