import Foundation
import MIDICore
import RenderCore
import Sequencer
import SoundFont
import SoundMeasures
import Synth
import Testing
import TestSupport

/// The fidelity tier: every General MIDI program and the drum kit, the same notes through
/// the same font, played by the SoundFont instrument and by FluidSynth (the `fluidsynth`
/// program, reverb and chorus off), compared note by note: level within 1.5 dB, attack and
/// release times within 10 %, spectral centroid within 10 %, pitch within 1 cent
/// (`NoteMeasures`). The font is TimGM6mb (small, quick), or `$MIDIHUB_FIDELITY_FONT`.
@Suite(.serialized) struct FidelityTests {
    static let rate = 48_000.0
    static let ticksPerSecond = 960.0   // 480 per quarter at the default 120 bpm
    static let velocity: UInt8 = 100

    /// One note of the comparison: a program at middle C, or a drum key on channel 10.
    struct Note: CustomStringConvertible {
        var program: Int?
        var key: UInt8
        var start: Double, held: Double, window: Double
        var description: String { program.map { "program \($0)" } ?? "drum key \(key)" }
    }

    /// 128 programs, 3 s each (held 1 s); then the GM kit's keys 35…81, 2 s each (held 0.2 s).
    static let notes: [Note] = {
        var notes: [Note] = []
        var time = 0.0
        for program in 0..<128 {
            notes.append(Note(program: program, key: 60, start: time + 0.1, held: 1, window: 2.9))
            time += 3
        }
        for key in UInt8(35)...81 {
            notes.append(Note(program: nil, key: key, start: time + 0.1, held: 0.2, window: 1.9))
            time += 2
        }
        return notes
    }()

    static func song() -> MIDIFile {
        var events: [TrackEvent] = []
        func tick(_ seconds: Double) -> Tick { Tick(UInt64((seconds * ticksPerSecond).rounded())) }
        for note in notes {
            let channel: UInt8 = note.program == nil ? 9 : 0
            if let program = note.program {
                events.append(TrackEvent(tick: tick(note.start - 0.05), .midi(.programChange(channel: 0, program: UInt8(program)))))
            }
            events.append(TrackEvent(tick: tick(note.start), .midi(.noteOn(channel: channel, note: note.key, velocity: velocity))))
            events.append(TrackEvent(tick: tick(note.start + note.held), .midi(.noteOff(channel: channel, note: note.key, velocity: 0))))
        }
        let end = notes.last.map { tick($0.start + $0.window) } ?? 0
        return MIDIFile(format: 0, tracks: [MIDITrack(events: events, endTick: end)])
    }

    static var fontPath: String {
        ProcessInfo.processInfo.environment["MIDIHUB_FIDELITY_FONT"] ?? "/usr/share/sounds/sf2/TimGM6mb.sf2"
    }

    @Test func everyProgramAndTheDrumKitSoundAsFluidSynthPlaysThem() throws {
        #expect(FileManager.default.fileExists(atPath: Self.fontPath),
                "no font at \(Self.fontPath) (fix: scripts/install-deps installs timgm6mb-soundfont)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-fidelity-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.song()
        let theirs = try Self.fluidSynthRender(file, in: folder)
        let ours = try Self.midihubRender(file)

        var rows: [Comparison] = []
        for note in Self.notes {
            let start = Int(((note.start - 0.1) * Self.rate).rounded())
            let end = start + Int(((note.window + 0.1) * Self.rate).rounded())
            let held = Int((note.held * Self.rate).rounded())
            let reference = NoteMeasures(left: theirs.left, right: theirs.right, start: start, held: held, end: end, rate: Self.rate)
            let measured = NoteMeasures(left: ours.left, right: ours.right, start: start, held: held, end: end, rate: Self.rate)
            #expect((reference == nil) == (measured == nil), "\(note): fluidsynth \(reference == nil ? "silent" : "sounds"), midihub \(measured == nil ? "silent" : "sounds")")
            if let reference, let measured { rows.append(Comparison(note: note, reference: reference, measured: measured)) }
        }
        print(Comparison.table(rows, font: Self.fontPath))
        #expect(rows.count > 150, "only \(rows.count) of \(Self.notes.count) notes sounded in both")
        for row in rows {
            for problem in row.problems { Issue.record("\(row.note): \(problem)") }
        }
    }

    /// FluidSynth's render: raw 32-bit float stereo, its default gain; reverb and chorus off
    /// unless asked for (its default settings then).
    static func fluidSynthRender(_ file: MIDIFile, in folder: URL, reverb: Bool = false,
                                 chorus: Bool = false) throws -> (left: [Float], right: [Float]) {
        let midi = folder.appendingPathComponent("notes.mid"), raw = folder.appendingPathComponent("fluidsynth.raw")
        try Data(file.smfBytes()).write(to: midi)
        let effects = "-R \(reverb ? 1 : 0) -C \(chorus ? 1 : 0)"
        let result = try ShellScript.run(
            "fluidsynth -ni -q \(effects) -r 48000 -o synth.cpu-cores=1 -T raw -O float -F '\(raw.path)' '\(fontPath)' '\(midi.path)'",
            in: folder)
        #expect(result.status == 0, "fluidsynth failed: \(result.output)")
        let data = try Data(contentsOf: raw)
        var left: [Float] = [], right: [Float] = []
        data.withUnsafeBytes { bytes in
            let samples = bytes.bindMemory(to: Float.self)
            left = stride(from: 0, to: samples.count - 1, by: 2).map { samples[$0] }
            right = stride(from: 1, to: samples.count, by: 2).map { samples[$0] }
        }
        return (left, right)
    }

    /// midihub's render in-process: the SoundFont instrument alone (no reverb), as `render` plays it.
    static func midihubRender(_ file: MIDIFile) throws -> MemorySink {
        let node = SoundFontNode(font: try SoundFont.open(fontPath))
        let renderer = OfflineRenderer(schedule: RenderSchedule(file: file, sampleRate: rate), nodes: [node],
                                       blockSize: 512, tail: .fixed(seconds: 0))
        var sink = MemorySink()
        try renderer.render(into: &sink)
        return sink
    }
}

/// One note measured in both renders, with what is out of tolerance.
struct Comparison {
    var note: FidelityTests.Note
    var reference: NoteMeasures, measured: NoteMeasures

    var levelDifference: Double { measured.level - reference.level }
    var centroidRatio: Double { measured.centroid / max(reference.centroid, 1) - 1 }
    var cents: Double? {
        guard let ours = measured.period, let theirs = reference.period else { return nil }
        return 1200 * log2(theirs / ours)
    }

    /// A time within 10 %, or within half the envelope's 10 ms window (what it resolves),
    /// whichever is larger.
    static func timeMatches(_ ours: Double, _ theirs: Double) -> Bool {
        abs(ours - theirs) <= max(0.1 * theirs, Double(NoteMeasures.envelopeWindow / 2) / FidelityTests.rate)
    }

    var problems: [String] {
        var problems: [String] = []
        if abs(levelDifference) > 1.5 { problems.append(String(format: "level %+.2f dB (fluidsynth %.1f dBFS)", levelDifference, reference.level)) }
        if !Self.timeMatches(measured.attack, reference.attack) {
            problems.append(String(format: "attack %.1f ms, fluidsynth %.1f ms", measured.attack * 1000, reference.attack * 1000))
        }
        switch (measured.release, reference.release) {
        case let (ours?, theirs?) where !Self.timeMatches(ours, theirs):
            problems.append(String(format: "release %.0f ms, fluidsynth %.0f ms", ours * 1000, theirs * 1000))
        case (nil, let theirs?): problems.append(String(format: "silent at the note-off, fluidsynth releases for %.0f ms", theirs * 1000))
        case (let ours?, nil): problems.append(String(format: "releases for %.0f ms, fluidsynth silent at the note-off", ours * 1000))
        default: break
        }
        if abs(centroidRatio) > 0.1 {
            problems.append(String(format: "centroid %.0f Hz, fluidsynth %.0f Hz", measured.centroid, reference.centroid))
        }
        if let cents, note.program != nil, abs(cents) > 1 { problems.append(String(format: "pitch %+.2f cents", cents)) }
        return problems
    }

    /// The worst notes per measure, for the issue's note and docs/soundfont.md.
    static func table(_ rows: [Comparison], font: String) -> String {
        func worst(_ name: String, _ value: (Comparison) -> Double?) -> String {
            let ranked = rows.compactMap { row in value(row).map { (row.note.description, $0) } }.sorted { abs($0.1) > abs($1.1) }
            return "\(name): " + ranked.prefix(5).map { String(format: "%@ %+.3f", $0.0, $0.1) }.joined(separator: ", ")
        }
        return ["fidelity against fluidsynth, \(font), \(rows.count) notes; worst:",
                worst("level dB", { $0.levelDifference }),
                worst("attack ms", { ($0.measured.attack - $0.reference.attack) * 1000 }),
                worst("release ms", { row in row.measured.release.flatMap { ours in row.reference.release.map { (ours - $0) * 1000 } } }),
                worst("centroid ratio", { $0.centroidRatio }),
                worst("pitch cents", { $0.note.program == nil ? nil : $0.cents }),
        ].joined(separator: "\n")
    }
}
