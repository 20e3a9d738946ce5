import Foundation
import Hub
import MIDICore
import Plugins
import RenderCore
import Sequencer
import SetupViews
import Synth
import Testing
@testable import Daemon

/// A patch's graph plays a song offline (`render --patch`) as the daemon would play it from
/// `midihub:sequence`: the song goes through the routes and MIDI processors (the built-in
/// transpose, the LV2 MIDI effect eg-fifths) to LV2 and built-in instruments and effects,
/// each event on its exact frame.
@Suite struct PatchRenderingTests {
    static let rate = 48_000.0
    static let plugins = InstalledPlugins(synchronousWork: true)
    static let registry = NodeTypes.registry.with(plugins: plugins)

    /// One note, `note`, from beat 2 (0.5 s at 120 BPM: frame 24000) for a half note.
    static func song(_ note: String = "C4") throws -> MIDIFile {
        try SequenceText.parse("ppq 480\ntempo 120\ntrack \"Keys\" channel 1\n  1:2 \(note) 1/2\n")
    }
    static let noteFrame = 24_000

    /// `nodes` and `routes` as a patch, laid out for `song`.
    static func rendering(_ nodes: String, _ routes: [String], song: MIDIFile) throws -> PatchRendering {
        let yaml = "nodes:\n" + nodes.split(separator: "\n").map { "  " + $0 }.joined(separator: "\n")
            + "\nroutes:\n" + routes.map { "  - " + $0 }.joined(separator: "\n") + "\n"
        let patch = try Patch.parse(yaml: yaml, file: "test.yaml", registry: registry)
        let catalog = NodeCatalog(bank: PresetBank(timbre: Timbre()), plugins: plugins)
        return try PatchRendering(patch: patch, song: song, registry: registry, catalog: catalog,
                                  format: RenderFormat(sampleRate: rate, maxFrames: 512))
    }

    /// `rendering` rendered with a second of tail: the left channel.
    static func render(_ rendering: PatchRendering) -> [Float] {
        let renderer = OfflineRenderer(schedule: rendering.schedule, nodes: rendering.nodes, ids: rendering.ids,
                                       wiring: rendering.wiring, blockSize: 512, tail: .fixed(seconds: 1))
        var sink = MemorySink()
        try? renderer.render(into: &sink)
        return sink.left
    }

    /// The notes the schedule plays, as (frame, note) pairs.
    static func noteOns(_ rendering: PatchRendering) -> [(frame: Int64, note: UInt8)] {
        rendering.schedule.entries.filter { $0.event.kind == .noteOn }.map { ($0.frame.index, $0.event.data1) }
    }

    @Test func anLV2InstrumentIntoABuiltInEffectSoundsFromTheNotesFrame() throws {
        let rendering = try Self.rendering("""
            song: { source: "midihub:sequence" }
            piano: { plugin: MDA ePiano, parameters: { treble_boost: 0.7 } }
            room: { effect: reverb, parameters: { wet: 0.4 } }
            out: { output: default }
            """, ["song -> piano", "piano -> room", "room -> out"], song: try Self.song())
        #expect(rendering.nodes.count == 2)
        #expect(rendering.notes.isEmpty, "\(rendering.notes)")
        let left = Self.render(rendering)
        let first = try #require(left.firstIndex { abs($0) > 1e-6 }, "the render is silent")
        #expect(first == Self.noteFrame, "the note sounds from its frame")
        #expect((left.map { abs($0) }.max() ?? 0) > 0.05, "heard, not a whisper")
    }

    @Test func theTransposeProcessorPlaysTheSongAnOctaveUp() throws {
        let synth = "synth: { instrument: midihub synth }\nout: { output: default }"
        let transposed = try Self.rendering("song: { source: \"*\" }\nup: { processor: transpose, parameters: { semitones: 12 } }\n" + synth,
                                            ["song -> up", "up -> synth", "synth -> out"], song: try Self.song("C4"))
        #expect(Self.noteOns(transposed).map(\.note) == [72])
        #expect(Self.noteOns(transposed).map(\.frame) == [Int64(Self.noteFrame)])
        let written = try Self.rendering("song: { source: \"midihub:sequence\" }\n" + synth, ["song -> synth", "synth -> out"],
                                         song: try Self.song("C5"))
        let heard = Self.render(transposed)
        #expect(heard.contains { abs($0) > 0.01 })
        #expect(heard == Self.render(written), "C4 an octave up sounds as the C5 the song could have written")
    }

    @Test func eg_fifthsAddsAFifthOnTheNotesFrame() throws {
        let rendering = try Self.rendering("""
            song: { source: "midihub:sequence" }
            fifths: { plugin: eg-fifths }
            piano: { plugin: MDA ePiano }
            out: { output: default }
            """, ["song -> fifths", "fifths -> piano", "piano -> out"], song: try Self.song("C4"))
        let notes = Self.noteOns(rendering)
        #expect(notes.map(\.note).sorted() == [60, 67])
        #expect(notes.allSatisfy { $0.frame == Int64(Self.noteFrame) })
        #expect(rendering.schedule.entries.filter { $0.event.kind == .noteOff }.count == 2, "both notes end")
    }

    @Test func aPluginNodesPresetAndParametersAreSetBeforeTheFirstNote() throws {
        let rendering = try Self.rendering("""
            song: { source: "midihub:sequence" }
            jx: { plugin: mda JX10, preset: Brass Section, parameters: { noise: 0.2 } }
            out: { output: default }
            """, ["song -> jx", "jx -> out"], song: try Self.song())
        let preset = try Self.plugins.presetValues(of: Self.plugins.descriptor(for: "mda JX10"), preset: "Brass Section")
        let node = try #require(rendering.nodes.first)
        let set = rendering.schedule.entries.prefix { $0.event.kind == .parameter }
        #expect(set.allSatisfy { $0.frame == .zero && $0.event.node == rendering.ids[0] })
        let values = Dictionary(uniqueKeysWithValues: set.map { entry in
            (node.parameters.first { $0.id == entry.event.parameter }?.name ?? "?", entry.event.value)
        })
        #expect(values["noise"] == 0.2, "the patch's value over the preset's")
        #expect(values.filter { $0.key != "noise" } == preset.filter { $0.key != "noise" && values[$0.key] != nil })
        #expect(values.count == preset.count, "every control value of the preset")
        #expect(rendering.schedule.entries.count > set.count, "the song's notes after them")
    }

    @Test func aPatchWhoseSourcesTakeNoSongIsRefused() throws {
        #expect {
            _ = try Self.rendering("keys: { source: hardware:* }\nsynth: { instrument: midihub synth }",
                                   ["keys -> synth"], song: try Self.song())
        } throws: { error in
            let refusal = error as? PatchRenderError
            return refusal?.problem.contains("midihub:sequence") == true && refusal?.fix.contains("source") == true
        }
    }

    @Test func otherAppsPortsAndAudioInputsAreLeftOutInOneLine() throws {
        let rendering = try Self.rendering("""
            song: { source: "midihub:sequence" }
            synth: { instrument: midihub synth }
            dump: { external: '"aseqdump"' }
            mic: { input: default }
            out: { output: default }
            """, ["song -> synth", "song -> dump", "synth -> out", "mic -> out"], song: try Self.song())
        #expect(rendering.notes.count == 1)
        #expect(rendering.notes.first?.contains("'dump'") == true && rendering.notes.first?.contains("'mic'") == true)
        #expect(rendering.nodes.count == 1, "the synth alone renders")
        #expect(Self.render(rendering).contains { abs($0) > 0.01 })
    }
}

/// The arpeggiator plays on the song's beats (120 BPM, then 60 from bar 2), as it follows
/// the song's timeline in the daemon.
@Suite struct PatchRenderingArpeggiatorTests {
    @Test func theArpeggiatorStepsOnTheSongsBeats() throws {
        let song = try SequenceText.parse("ppq 480\ntempo 120\ntempo 60 at 2:1\ntrack \"Keys\" channel 1\n  1:1 C4 2/1\n")
        let rendering = try PatchRenderingTests.rendering("""
            song: { source: "midihub:sequence" }
            arp: { processor: arpeggiator, parameters: { rate: 1 } }
            synth: { instrument: midihub synth }
            out: { output: default }
            """, ["song -> arp", "arp -> synth", "synth -> out"], song: song)
        let frames = PatchRenderingTests.noteOns(rendering).map(\.frame)
        // Bar 1's four beats at 0.5 s, then a beat a second.
        #expect(Array(frames.prefix(6)) == [0, 24_000, 48_000, 72_000, 96_000, 144_000], "\(frames)")
    }
}
