import Testing
import MIDICore

/// What the reader accepts on purpose (see `MIDIFile.init(smf:)`).
@Suite struct SMFToleranceTests {
    typealias F = SMFFixtures

    @Test func unknownChunksAreSkipped() throws {
        let bytes = F.header(tracks: 1) + F.chunk("XFIH", [1, 2, 3, 4]) + F.chunk("MTrk", [0x00, 0xC0, 0x05] + F.endOfTrack)
        let file = try MIDIFile(smf: bytes)
        #expect(file.tracks == [MIDITrack(events: [TrackEvent(tick: 0, .midi(.programChange(channel: 0, program: 5)))], endTick: 0)])
    }

    @Test func missingEndOfTrackEndsAtTheLastEvent() throws {
        let file = try MIDIFile(smf: F.oneTrack([0x00, 0x90, 0x3C, 0x40, 0x60, 0x3C, 0x00]))
        #expect(file.tracks[0].events.map(\.tick) == [0, 96])
        #expect(file.tracks[0].endTick == 96)
    }

    @Test func bytesAfterEndOfTrackAndAfterTheLastTrackAreIgnored() throws {
        let track: [UInt8] = [0x00, 0x90, 0x3C, 0x40, 0x83, 0x60, 0xFF, 0x2F, 0x00, 0x00, 0x00]
        let file = try MIDIFile(smf: F.oneTrack(track) + [0xDE, 0xAD])
        #expect(file.tracks[0].events.count == 1)
        #expect(file.tracks[0].endTick == 480)
    }

    @Test func knownMetaWithTheWrongLengthIsKeptVerbatim() throws {
        let file = try MIDIFile(smf: F.oneTrack([0x00, 0xFF, 0x51, 0x02, 0x07, 0xA1, 0x00, 0xFF, 0x00, 0x00] + F.endOfTrack))
        #expect(file.tracks[0].events.map(\.kind) == [.meta(.unknown(type: 0x51, data: [0x07, 0xA1])), .meta(.unknown(type: 0x00, data: []))])
        #expect(try MIDIFile(smf: file.smfBytes()) == file)
    }

    @Test func latin1TextIsDecoded() throws {
        let file = try MIDIFile(smf: F.oneTrack([0x00, 0xFF, 0x03, 0x04, 0x43, 0x61, 0x66, 0xE9] + F.endOfTrack))
        #expect(file.tracks[0].name == "Café")
    }

    @Test func formatTwoAndSMPTEDivisionAreRead() throws {
        let bytes = F.header(format: 2, tracks: 2, division: 0xE728) + F.chunk("MTrk", F.endOfTrack) + F.chunk("MTrk", F.endOfTrack)
        let file = try MIDIFile(smf: bytes)
        #expect(file.format == 2)
        #expect(file.division == .smpte(framesPerSecond: 25, ticksPerFrame: 40))
        #expect(file.tracks.count == 2)
    }

    @Test func noteOnWithVelocityZeroStaysANoteOn() throws {
        let file = try MIDIFile(smf: F.oneTrack([0x00, 0x90, 0x3C, 0x00] + F.endOfTrack))
        #expect(file.tracks[0].events[0].kind == .midi(.noteOn(channel: 0, note: 60, velocity: 0)))
    }
}
