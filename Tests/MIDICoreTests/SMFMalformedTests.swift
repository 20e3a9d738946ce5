import Testing
import MIDICore

/// Every malformed input gives its typed error at the right byte, never a trap.
@Suite struct SMFMalformedTests {
    typealias F = SMFFixtures

    private func error(reading bytes: [UInt8]) -> SMFError? {
        do {
            _ = try MIDIFile(smf: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func missingHeader() {
        #expect(error(reading: []) == SMFError(offset: 0, reason: .missingHeader))
        #expect(error(reading: Array("RIFF\0\0\0\u{4}WAVE".utf8)) == SMFError(offset: 0, reason: .missingHeader))
    }

    @Test func headerTooShort() {
        let bytes = Array("MThd".utf8) + F.bigEndian32(2) + [0, 1]
        #expect(error(reading: bytes) == SMFError(offset: 4, reason: .headerTooShort(length: 2)))
    }

    @Test func headerLongerThanTheFile() {
        let bytes = Array("MThd".utf8) + F.bigEndian32(100) + [0, 1, 0, 1, 1, 0xE0]
        #expect(error(reading: bytes) == SMFError(offset: 0, reason: .chunkExceedsFile(type: "MThd", length: 100, remaining: 6)))
    }

    @Test func unsupportedFormat() {
        #expect(error(reading: F.header(format: 3, tracks: 0)) == SMFError(offset: 8, reason: .unsupportedFormat(3)))
    }

    @Test(arguments: [0x0000, 0xE700, 0xE500 | 40] as [UInt16])
    func invalidDivision(raw: UInt16) {
        // 0 PPQ; SMPTE 25 fps with 0 ticks per frame; SMPTE -27 fps.
        #expect(error(reading: F.header(tracks: 0, division: raw)) == SMFError(offset: 12, reason: .invalidDivision(raw)))
    }

    @Test func hugeTrackChunkLength() {
        let bytes = F.header(tracks: 1) + F.chunk("MTrk", F.endOfTrack, length: 0xFFFF_FFFF)
        #expect(error(reading: bytes) == SMFError(offset: 14, reason: .chunkExceedsFile(type: "MTrk", length: 0xFFFF_FFFF, remaining: 4)))
    }

    @Test func headerClaimsMoreTracksThanPresent() {
        let bytes = F.header(tracks: 3) + F.chunk("MTrk", F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: bytes.count, reason: .missingTracks(declared: 3, found: 1)))
    }

    @Test func trackEndsInTheMiddleOfAnEvent() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C])
        #expect(error(reading: bytes) == SMFError(offset: bytes.count, reason: .trackEndsMidEvent))
    }

    @Test func deltaTimeCutOffByTheTrackEnd() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x81])
        #expect(error(reading: bytes) == SMFError(offset: bytes.count, reason: .trackEndsMidEvent))
    }

    @Test func hugeSysExLength() {
        let bytes = F.oneTrack([0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0x7F, 0x01, 0xF7])
        let lengthEnd = F.firstTrackData + 6
        #expect(error(reading: bytes) == SMFError(offset: lengthEnd, reason: .eventExceedsTrack(length: 0x0FFF_FFFF, remaining: 2)))
    }

    @Test func hugeMetaLength() {
        let bytes = F.oneTrack([0x00, 0xFF, 0x01, 0xFF, 0xFF, 0xFF, 0x7F, 0x41])
        let lengthEnd = F.firstTrackData + 7
        #expect(error(reading: bytes) == SMFError(offset: lengthEnd, reason: .eventExceedsTrack(length: 0x0FFF_FFFF, remaining: 1)))
    }

    @Test func quantityLongerThanFourBytes() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x81, 0x80, 0x80, 0x80, 0x00] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 4, reason: .quantityTooLong))
    }

    @Test func dataByteAtTrackStartWithoutRunningStatus() {
        let bytes = F.oneTrack([0x00, 0x3C, 0x40] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 1, reason: .dataByteWithoutStatus(0x3C)))
    }

    @Test func metaEventCancelsRunningStatus() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x00, 0xFF, 0x01, 0x00, 0x10, 0x3C, 0x00] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 9, reason: .dataByteWithoutStatus(0x3C)))
    }

    @Test func sysExCancelsRunningStatus() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x00, 0xF0, 0x01, 0xF7, 0x10, 0x3C, 0x00] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 9, reason: .dataByteWithoutStatus(0x3C)))
    }

    @Test func statusByteWhereADataByteBelongs() {
        let bytes = F.oneTrack([0x00, 0x90, 0x3C, 0x80, 0x3C] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 3, reason: .statusByteInsideMessage(0x80)))
    }

    @Test(arguments: [0xF1, 0xF6, 0xF8, 0xFE] as [UInt8])
    func systemStatusInATrack(status: UInt8) {
        let bytes = F.oneTrack([0x00, status, 0x00] + F.endOfTrack)
        #expect(error(reading: bytes) == SMFError(offset: F.firstTrackData + 1, reason: .invalidStatus(status)))
    }

    @Test func descriptionIsOneLineWithOffsetProblemAndFix() {
        let error = SMFError(offset: 14, reason: .chunkExceedsFile(type: "MTrk", length: 4_294_967_295, remaining: 4))
        #expect(error.description == "byte 14: MTrk chunk length 4294967295 exceeds the 4 bytes left in the file (fix: the file is truncated or corrupt; re-export or download it again)")
        let reasons: [SMFError.Reason] = [
            .missingHeader, .headerTooShort(length: 1), .unsupportedFormat(9), .invalidDivision(0),
            .missingTracks(declared: 2, found: 1), .trackEndsMidEvent, .eventExceedsTrack(length: 9, remaining: 1),
            .quantityTooLong, .dataByteWithoutStatus(0x3C), .statusByteInsideMessage(0x90), .invalidStatus(0xF8),
        ]
        for reason in reasons {
            let text = SMFError(offset: 3, reason: reason).description
            #expect(text.hasPrefix("byte 3: ") && text.contains(" (fix: ") && !text.contains("\n"), "\(text)")
        }
    }

    /// Every prefix of a valid file either reads or throws; none traps or allocates
    /// beyond its size.
    @Test func everyTruncationOfAValidFileFailsCleanly() {
        let bytes = GeneratedFiles.file(seed: 7, tracks: 2, eventsPerTrack: 30).smfBytes()
        for length in 0..<bytes.count {
            _ = try? MIDIFile(smf: Array(bytes[0..<length]))
        }
        #expect(throws: SMFError.self) { try MIDIFile(smf: Array(bytes.dropLast())) }
    }
}
