import ArgumentParser
import MIDICore

/// `midihub info FILE`: what a sequence holds — format, division, tracks, tempo map,
/// time signatures, duration in seconds and bars.
struct InfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a sequence's format, division, tracks, tempo map and duration.",
        discussion: """
            FILE is a Standard MIDI File (recognised by its MThd header) or a text \
            sequence (docs/sequence-format.md). Positions are bar:beat, 1-based; \
            channels are 1-16.

            --json prints one object on one line; for sequences/c-major-scale.mid \
            (wrapped here):
              {"file":"sequences/c-major-scale.mid","format":1,
               "division":{"ticksPerQuarter":480},"durationTicks":7680,
               "durationSeconds":9.600,"bars":4,"end":"5:1","tempos":[{"tick":0,
               "position":"1:1","bpm":100.000,"microsecondsPerQuarter":600000}],
               "timeSignatures":[{"tick":0,"position":"1:1","numerator":4,
               "denominator":4}],"tracks":[{"number":1,"name":"C major scale","events":4,
               "notes":0,"channels":[],"endTick":0},{"number":2,"name":"Piano",
               "events":32,"notes":15,"channels":[1],"endTick":7680}]}

            Examples:
              midihub info sequences/little-song.song
              midihub info sequences/c-major-scale.mid --json | jq .tracks
            """
    )

    @Argument(help: "A .mid file or a text sequence (.song).")
    var file: String

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    func run() throws {
        let summary = SequenceSummary(file: try SequenceFile.load(path: file))
        print(json ? summary.json(path: file) : summary.text(path: file))
    }
}

/// The facts `info` prints, gathered once from a `MIDIFile`.
///
/// - Thread: any (a plain value).
struct SequenceSummary {
    struct Track {
        var number: Int
        var name: String?
        var events: Int
        var notes: Int
        /// 1-based channels the track's messages use.
        var channels: [Int]
        var endTick: Tick
    }

    var format: UInt16
    var division: MIDIFile.Division
    var durationTicks: Tick
    var durationSeconds: Double
    var end: BarBeat
    var tempos: [(change: TempoChange, position: BarBeat)]
    var timeSignatures: [(change: TimeSignatureChange, position: BarBeat)]
    var tracks: [Track]

    init(file: MIDIFile) {
        let tempoMap = TempoMap(file: file)
        format = file.format
        division = file.division
        durationTicks = file.durationTicks
        durationSeconds = tempoMap.duration(at: durationTicks).seconds
        end = tempoMap.barBeat(atTick: durationTicks)
        tempos = tempoMap.tempoChanges.map { ($0, tempoMap.barBeat(atTick: $0.tick)) }
        timeSignatures = tempoMap.timeSignatures.map { ($0, tempoMap.barBeat(atTick: $0.tick)) }
        tracks = file.tracks.enumerated().map { index, track in
            var channels = Set<Int>()
            var notes = 0
            for event in track.events {
                guard case .midi(let message) = event.kind else { continue }
                if let channel = message.channel { channels.insert(Int(channel) + 1) }
                if case .noteOn(_, _, let velocity) = message, velocity > 0 { notes += 1 }
            }
            return Track(number: index + 1, name: track.name, events: track.events.count, notes: notes,
                         channels: channels.sorted(), endTick: track.endTick)
        }
    }

    /// Bars the sequence spans; a bar it only starts counts.
    var bars: Int { end.beat == 1 && end.tick == 0 ? end.bar - 1 : end.bar }

    var divisionText: String {
        switch division {
        case .ticksPerQuarter(let ticks): "\(ticks) ticks per quarter note"
        case .smpte(let frames, let ticks): "SMPTE \(frames) frames/s, \(ticks) ticks per frame"
        }
    }

    func text(path: String) -> String {
        var lines = [
            "file:      \(path)",
            "format:    \(format) (\(tracks.count) track\(tracks.count == 1 ? "" : "s"))",
            "division:  \(divisionText)",
            "duration:  \(formatFixed(durationSeconds, decimals: 3)) s, \(bars) bar\(bars == 1 ? "" : "s") (ends at \(end), tick \(durationTicks))",
        ]
        lines.append("tempo:     " + tempos.map { "\(formatFixed($0.change.beatsPerMinute, decimals: 3)) BPM at \($0.position)" }.joined(separator: ", "))
        lines.append("time:      " + timeSignatures.map { "\($0.change.numerator)/\($0.change.denominator) at \($0.position)" }.joined(separator: ", "))
        lines.append("tracks:")
        for track in tracks {
            let name = track.name.map { "\"\($0)\"" } ?? "(no name)"
            let channels = track.channels.isEmpty ? "" : ", channel\(track.channels.count == 1 ? "" : "s") " + track.channels.map(String.init).joined(separator: ",")
            lines.append("  \(track.number)  \(name): \(track.events) events, \(track.notes) notes\(channels)")
        }
        return lines.joined(separator: "\n")
    }

    func json(path: String) -> String {
        let divisionFields: [(String, JSONObject.Value)]
        switch division {
        case .ticksPerQuarter(let ticks):
            divisionFields = [("ticksPerQuarter", .int(Int(ticks)))]
        case .smpte(let frames, let ticks):
            divisionFields = [("framesPerSecond", .int(Int(frames))), ("ticksPerFrame", .int(Int(ticks)))]
        }
        let tempoValues: [JSONObject.Value] = tempos.map { tempo in
            .rendered(JSONObject([
                ("tick", .int(Int(tempo.change.tick.whole))), ("position", .string(tempo.position.description)),
                ("bpm", .number(tempo.change.beatsPerMinute, decimals: 3)),
                ("microsecondsPerQuarter", .int(Int(tempo.change.microsecondsPerQuarter))),
            ]).rendered)
        }
        let signatureValues: [JSONObject.Value] = timeSignatures.map { signature in
            .rendered(JSONObject([
                ("tick", .int(Int(signature.change.tick.whole))), ("position", .string(signature.position.description)),
                ("numerator", .int(signature.change.numerator)), ("denominator", .int(signature.change.denominator)),
            ]).rendered)
        }
        let trackValues: [JSONObject.Value] = tracks.map { track in
            .rendered(JSONObject([
                ("number", .int(track.number)), ("name", track.name.map { .string($0) } ?? .null),
                ("events", .int(track.events)), ("notes", .int(track.notes)),
                ("channels", .array(track.channels.map { .int($0) })), ("endTick", .int(Int(track.endTick.whole))),
            ]).rendered)
        }
        return JSONObject([
            ("file", .string(path)), ("format", .int(Int(format))), ("division", .rendered(JSONObject(divisionFields).rendered)),
            ("durationTicks", .int(Int(durationTicks.whole))), ("durationSeconds", .number(durationSeconds, decimals: 3)),
            ("bars", .int(bars)), ("end", .string(end.description)),
            ("tempos", .array(tempoValues)), ("timeSignatures", .array(signatureValues)), ("tracks", .array(trackValues)),
        ]).rendered
    }
}
