import Foundation
import MIDICore
import TestSupport
import Testing
@testable import MidihubCLI

/// `midihub render --patch` (docs/plugins.md, "A patch's graph rendered offline"), run as a
/// user runs it: the doc's example patch and command, the note's onset against a render with
/// `--instrument`, and the one-line refusals.
@Suite struct RenderPatchTests {
    static let testFile = "Tests/MidihubCLITests/RenderPatchTests.swift"

    /// The block of docs/plugins.md marked for `test`.
    static func block(_ test: String) throws -> DocumentBlock {
        try PluginDocBlocks.block(test, of: testFile)
    }

    /// The left channel of a 16-bit stereo WAV `render` wrote (after its 44-byte header).
    static func left(_ url: URL) throws -> [Int16] {
        let samples = try Data(contentsOf: url).dropFirst(44).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        return stride(from: 0, to: samples.count, by: 2).map { samples[$0] }
    }

    /// A scratch folder that sees the repository's `sequences/` and `patches/`, with `files` written in it.
    static func scratch(_ files: [String: String] = [:]) throws -> URL {
        let folder = try DocCommandTests.scratchFolder()
        for (name, text) in files { try Data(text.utf8).write(to: folder.appendingPathComponent(name)) }
        return folder
    }

    @Test func theExamplePatchIsThePatchFile() throws {
        try PluginDocBlocks.expect(try Self.block("theExamplePatchIsThePatchFile"), isPatch: "patches/lv2-render.yaml")
    }

    @Test func aSongRendersThroughThePatchsGraph() throws {
        let block = try Self.block("aSongRendersThroughThePatchsGraph")
        let command = try #require(block.lines.first { $0.hasPrefix("midihub render ") })
        let words = try ShellWords.split(command)
        let scratch = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try MidihubBinary.run(Array(words.dropFirst()), in: scratch)
        #expect(run.status == 0, "\(block): \(run.standardError)")
        #expect(run.standardOutput.hasPrefix("wrote epiano.wav: "))
        #expect(run.standardError.isEmpty, "nothing left out: \(run.standardError)")
        let heard = try Self.left(scratch.appendingPathComponent("epiano.wav"))
        #expect(Double(heard.filter { abs(Int($0)) > 1000 }.count) / Double(heard.count) > 0.1, "sounding, not silent")
    }

    /// A note off the beat grid and off the block grid (beat 2 and 77 ticks at 120 BPM:
    /// 0.580208 s, frame 27850 at 48 kHz) through the doc's patch sounds on its frame, as it
    /// does through the same LV2 instrument alone (`--instrument`).
    @Test func aNoteSoundsOnItsFrameThroughThePatch() throws {
        let scratch = try Self.scratch(["one.song": "ppq 480\ntempo 120\ntrack \"Keys\" channel 1\n  1:2:77 C4 1/2\n"])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let song = try SequenceFile.load(path: scratch.appendingPathComponent("one.song").path)
        let note = try #require(song.mergedEvents().first { if case .midi(.noteOn) = $0.event.kind { true } else { false } })
        let frame = TimeBase(sampleRate: 48_000).nearestFrame(after: TempoMap(file: song).duration(at: note.event.tick)).index
        #expect(frame == 27_850)
        for (output, options) in [("patch.wav", ["--patch", "patches/lv2-render.yaml"]), ("alone.wav", ["--instrument", "MDA ePiano"])] {
            let run = try MidihubBinary.run(["render", "one.song", "-o", output] + options, in: scratch)
            #expect(run.status == 0, "\(run.standardError)")
            let left = try Self.left(scratch.appendingPathComponent(output))
            #expect(left.firstIndex { $0 != 0 }.map(Int64.init) == frame, "\(options): the note sounds from its frame")
        }
    }

    /// The doc's patch with its plugin node isolated (docs/plugins.md, "Isolated plugins"):
    /// the EPiano renders in a `midihub plugin-child` process, and the file is the same, sample
    /// for sample, as the render in one process (offline, the render waits for every block).
    @Test func anIsolatedPluginNodeRendersAsInProcess() throws {
        let patch = try String(contentsOf: MidihubBinary.repository.appendingPathComponent("patches/lv2-render.yaml"), encoding: .utf8)
        let isolated = patch.replacingOccurrences(of: "plugin: MDA ePiano,", with: "plugin: MDA ePiano, isolate: true,")
        #expect(isolated != patch)
        let scratch = try Self.scratch(["isolated.yaml": isolated])
        defer { try? FileManager.default.removeItem(at: scratch) }
        for (patch, output) in [("isolated.yaml", "isolated.wav"), ("patches/lv2-render.yaml", "one.wav")] {
            let run = try MidihubBinary.run(["render", "sequences/little-song.mid", "--patch", patch, "-o", output], in: scratch)
            #expect(run.status == 0, "\(patch): \(run.standardError)")
        }
        let (isolatedSound, inProcess) = (try Self.left(scratch.appendingPathComponent("isolated.wav")),
                                          try Self.left(scratch.appendingPathComponent("one.wav")))
        #expect(isolatedSound.contains { abs(Int($0)) > 1000 }, "the isolated EPiano sounds")
        #expect(isolatedSound == inProcess)
    }

    @Test func aPatchWhoseSourcesTakeNoSongIsRefusedInOneLine() throws {
        let scratch = try Self.scratch(["keys.yaml": """
            nodes:
              keys: { source: hardware:* }
              synth: { instrument: midihub synth }
              out: { output: default }
            routes:
              - keys -> synth
              - synth -> out
            """])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try MidihubBinary.run(["render", "sequences/little-song.mid", "--patch", "keys.yaml", "-o", "keys.wav"], in: scratch)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("midihub: keys.yaml: no source node takes midihub:sequence"))
        #expect(run.standardError.contains("(fix: add a source node such as `song: { source: \"midihub:sequence\" }` (or `\"*\"`)"))
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: scratch.appendingPathComponent("keys.wav").path))
    }

    @Test(arguments: [["--instrument", "synth"], ["--soundfont", "fuzz/x.sf2"], ["--preset-bank", "patches/presets"]])
    func aPatchTakesNoInstrumentBesideIt(_ option: [String]) throws {
        let run = try MidihubBinary.run(["render", "sequences/little-song.mid", "--patch", "patches/lv2-render.yaml", "-o", "x.wav"]
                                        + option)
        #expect(run.status == 2)
        #expect(run.standardError == "midihub: --patch plays the patch's own instruments, so \(option[0]) does not go with it "
                + "(fix: drop \(option[0]), or drop --patch)\n")
    }

    @Test func aBadPatchIsThePatchReadersLine() throws {
        let scratch = try Self.scratch(["bad.yaml": "nodes:\n  synth: { instrument: Reverb }\n"])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try MidihubBinary.run(["render", "sequences/little-song.mid", "--patch", "bad.yaml", "-o", "bad.wav"], in: scratch)
        #expect(run.status == 2)
        #expect(run.standardError.hasPrefix("midihub: bad.yaml:2:"), "\(run.standardError)")
        #expect(run.standardError.split(separator: "\n").count == 1, "\(run.standardError)")
    }

    @Test func anotherAppsPortIsLeftOutInOneLine() throws {
        let scratch = try Self.scratch(["dump.yaml": """
            nodes:
              song: { source: "*" }
              synth: { instrument: midihub synth }
              dump: { external: '"aseqdump"' }
              out: { output: default }
            routes:
              - song -> synth
              - song -> dump
              - synth -> out
            """])
        defer { try? FileManager.default.removeItem(at: scratch) }
        let run = try MidihubBinary.run(["render", "sequences/c-major-scale.mid", "--patch", "dump.yaml", "-o", "dump.wav"], in: scratch)
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError == "midihub: left out, as they cannot play offline: 'dump' (another app's port \"aseqdump\"); "
                + "the file holds what 'default' would play\n")
        #expect(try Self.left(scratch.appendingPathComponent("dump.wav")).contains { abs(Int($0)) > 1000 })
    }
}
