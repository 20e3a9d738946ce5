import Testing

@testable import RTPMIDI

@Suite struct AppleMIDICommandTests {
    /// An invitation as Apple's Audio MIDI Setup sends it (bytes from a capture: version 2,
    /// token, SSRC, "Session 1" and its NUL).
    @Test func readsAnInvitationAsAppleSendsIt() throws {
        let bytes: [UInt8] = [0xFF, 0xFF, 0x49, 0x4E, 0, 0, 0, 2, 0xF5, 0x19, 0xAE, 0xB9, 0x76, 0x3F, 0xD1, 0x0C]
            + Array("Session 1".utf8) + [0]
        let command = try AppleMIDICommand(decoding: bytes)
        #expect(command == .invitation(.init(initiatorToken: 0xF519_AEB9, ssrc: 0x763F_D10C, name: "Session 1")))
        #expect(command.encoded() == bytes)
    }

    @Test(arguments: [
        AppleMIDICommand.accepted(.init(initiatorToken: 1, ssrc: 2, name: "rack")),
        .refused(.init(initiatorToken: 3, ssrc: 4, name: "a name — with UTF-8")),
        .end(.init(initiatorToken: 5, ssrc: 6)),
        .clockSync(.init(ssrc: 7, count: 2, timestamps: (1, 0x1_0000_0002, .max))),
        .receiverFeedback(ssrc: 8, sequenceNumber: 0xBEEF),
    ])
    func everyCommandReadsBackAsWritten(command: AppleMIDICommand) throws {
        #expect(try AppleMIDICommand(decoding: command.encoded()) == command)
    }

    @Test func theClockSyncAndFeedbackHaveTheirWireSizes() {
        #expect(AppleMIDICommand.clockSync(.init(ssrc: 1, count: 0, timestamps: (0, 0, 0))).encoded().count == 36)
        #expect(AppleMIDICommand.receiverFeedback(ssrc: 1, sequenceNumber: 2).encoded().count == 12)
    }

    @Test(arguments: [
        ([0xFF, 0xFF, 0x49, 0x4E, 0, 0, 0, 2, 0, 0], AppleMIDICommandError.truncated("IN")),
        ([0xFF, 0xFF, 0x43, 0x4B] + [UInt8](repeating: 0, count: 4) + [3, 0, 0, 0] + [UInt8](repeating: 0, count: 24),
         .badClockSyncCount(3)),
        ([0xFF, 0xFF, 0x5A, 0x5A], .unknown("ZZ")),
        ([0x80, 0x61], .notACommand),
        ([0xFF, 0xFF, 0x4F, 0x4B, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 1, 0xC3, 0x28, 0], .nameNotUTF8("OK")),
    ] as [([UInt8], AppleMIDICommandError)])
    func badCommandsNameWhatIsWrong(bytes: [UInt8], error: AppleMIDICommandError) {
        #expect(throws: error) { try AppleMIDICommand(decoding: bytes) }
    }
}
