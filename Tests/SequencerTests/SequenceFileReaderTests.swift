import Foundation
@testable import Sequencer
import Testing
import UserFiles

/// The paths a user may hand a reader: a regular file within its limit, or one line saying
/// what the path is — never a hang on a FIFO, never a 1 GiB read, never silence from nothing.
@Suite struct SequenceFileReaderTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func aDirectoryAFIFOAndAnEmptyFileAreRefusedInOneLine() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: SequenceFileReader.Failure(problem: "'\(folder)' is a directory, not a sequence file",
                                                   fix: "give the path of a sequence file", isBadInput: true)) {
            try SequenceFileReader.read(path: folder)
        }
        let fifo = folder + "/song.mid"
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SequenceFileReader.Failure(problem: "'\(fifo)' is a FIFO, not a sequence file",
                                                   fix: "give the path of a sequence file", isBadInput: true)) {
            try SequenceFileReader.read(path: fifo)  // returns at once: nobody writes the FIFO
        }
        let empty = folder + "/empty.mid"
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(throws: SequenceFileReader.Failure(problem: "'\(empty)' is empty", fix: "give a .mid file or a text sequence (.song)",
                                                   isBadInput: true)) {
            try SequenceFileReader.read(path: empty)
        }
        #expect(throws: SequenceFileReader.Failure(problem: "no file '\(folder)/none.mid'", fix: "check the path", isBadInput: true)) {
            try SequenceFileReader.read(path: folder + "/none.mid")
        }
    }

    @Test func aFilePastItsLimitIsRefusedBeforeItIsRead() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/big.mid"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(count: 3 << 20)))
        #expect(throws: UserFileProblem(path: path, what: "a sequence", kind: .tooLarge(size: 3 << 20, limit: 2 << 20))) {
            try UserFile.read(path, what: "a sequence", limit: 2 << 20)
        }
        #expect(UserFileProblem(path: "a.mid", what: "a sequence", kind: .tooLarge(size: 3 << 30, limit: 64 << 20)).description
            == "'a.mid' is 3.0 GiB, past the 64 MiB a sequence file may have (fix: is it the right file? split it, or give a smaller one)")
        #expect(try UserFile.read(path, what: "a sequence", limit: 4 << 20).count == 3 << 20)
    }
}

/// A WAV is written through a partial file created afresh: a link someone left at the partial's
/// name (the daemon writes clients' `audio.record` takes) is replaced, never followed.
@Suite struct WAVFileWriterLinkTests {
    @Test func aLinkAtThePartialsNameIsNotFollowed() throws {
        let folder = try SequenceFileReaderTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let victim = folder + "/victim.txt"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("keep me".utf8)))
        let partial = folder + "/.take.wav.\(getpid()).partial"
        try FileManager.default.createSymbolicLink(atPath: partial, withDestinationPath: victim)
        var writer = try WAVFileWriter(path: folder + "/take.wav", format: .s16, sampleRate: 48_000)
        let silence = [Float](repeating: 0, count: 64)
        try silence.withUnsafeBufferPointer { samples in
            try writer.write(left: samples.baseAddress!, right: samples.baseAddress!, frames: 64)
        }
        try writer.finish()
        #expect(FileManager.default.contents(atPath: victim) == Data("keep me".utf8))
        #expect(FileManager.default.contents(atPath: folder + "/take.wav")?.count == 44 + 64 * 4)
    }
}

extension SequenceFileReaderTests {
    @Test func aFileNamedMidWithoutMThdIsAMIDIFileError() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/broken.MID"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("garbage\n".utf8)))
        #expect(throws: SequenceFileReader.Failure(problem: "'\(path)' is not a Standard MIDI File: it starts with 67 61 72 62, not MThd",
                                                   fix: "give a MIDI file, or a text sequence in a file named .song", isBadInput: true)) {
            try SequenceFileReader.read(path: path)
        }
        let text = folder + "/song.txt"
        #expect(FileManager.default.createFile(atPath: text, contents: Data("tempo 100\ntrack \"Piano\" channel 1\n  1:1 C4 1/4\n".utf8)))
        #expect(try SequenceFileReader.read(path: text).tracks.isEmpty == false, "another name is read as text")
    }
}
