import Foundation
import Testing
import MIDICore

@Suite struct SMFRoundTripTests {
    typealias F = SMFFixtures

    @Test(arguments: 0..<40 as Range<UInt64>)
    func generatedFilesRoundTrip(seed: UInt64) throws {
        let file = GeneratedFiles.file(seed: seed, format: seed % 3 == 0 ? 0 : 1)
        let bytes = file.smfBytes()
        let read = try MIDIFile(smf: bytes)
        #expect(read == file)
        #expect(read.smfBytes() == bytes)
    }

    @Test func seedCorpusFilesRoundTrip() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../fuzz/corpus/smf").standardized
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".mid") }
        #expect(!names.isEmpty, "no seed files in \(folder.path)")
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(name)))
            let first = try MIDIFile(smf: bytes)
            let second = try MIDIFile(smf: first.smfBytes())
            #expect(second == first, "\(name)")
        }
    }

    @Test func writerUsesRunningStatusAndEndsWithEndOfTrackAtEndTick() {
        let track = MIDITrack(events: [
            TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 60, velocity: 100))),
            TrackEvent(tick: 0, .midi(.noteOn(channel: 0, note: 64, velocity: 100))),
            TrackEvent(tick: 480, .midi(.noteOn(channel: 0, note: 60, velocity: 0))),
            TrackEvent(tick: 480, .meta(.marker("A"))),
            TrackEvent(tick: 480, .midi(.noteOn(channel: 0, note: 64, velocity: 0))),
        ], endTick: 960)
        let bytes = MIDIFile(format: 0, division: .ticksPerQuarter(480), tracks: [track]).smfBytes()
        let expectedTrack: [UInt8] = [
            0x00, 0x90, 60, 100, 0x00, 64, 100, 0x83, 0x60, 60, 0,
            0x00, 0xFF, 0x06, 0x01, 0x41,
            0x00, 0x90, 64, 0,
            0x83, 0x60, 0xFF, 0x2F, 0x00,
        ]
        #expect(bytes == F.header(format: 0, tracks: 1) + F.chunk("MTrk", expectedTrack))
    }

    @Test func writerStoresSysExWithLengthAndEscapes() {
        let track = MIDITrack(events: [
            TrackEvent(tick: 0, .sysEx([0x43, 0x12, 0x00])),
            TrackEvent(tick: 10, .sysExEscape([0x07, 0xF7])),
            TrackEvent(tick: 20, .midi(.sysEx([0x7E, 0x01]))),
            TrackEvent(tick: 30, .midi(.clock)),
        ])
        let bytes = MIDIFile(tracks: [track]).smfBytes()
        let expectedTrack: [UInt8] = [
            0x00, 0xF0, 0x03, 0x43, 0x12, 0x00,
            0x0A, 0xF7, 0x02, 0x07, 0xF7,
            0x0A, 0xF0, 0x03, 0x7E, 0x01, 0xF7,
            0x0A, 0xFF, 0x2F, 0x00,
        ]
        #expect(bytes == F.header(tracks: 1) + F.chunk("MTrk", expectedTrack))
    }

    @Test func writerStoresSMPTEDivision() throws {
        let file = MIDIFile(format: 1, division: .smpte(framesPerSecond: 25, ticksPerFrame: 40), tracks: [MIDITrack()])
        let bytes = file.smfBytes()
        #expect(Array(bytes[12..<14]) == [0xE7, 0x28])
        #expect(try MIDIFile(smf: bytes) == file)
    }

    @Test func endTickBeforeTheLastEventIsRaisedToIt() throws {
        let track = MIDITrack(events: [TrackEvent(tick: 100, .midi(.programChange(channel: 0, program: 1)))], endTick: 50)
        let read = try MIDIFile(smf: MIDIFile(tracks: [track]).smfBytes())
        #expect(read.tracks[0].endTick == 100)
    }
}
