import ArgumentParser
import Control
import Foundation

/// `midihub transport [ACTION]`: drives the running daemon's transport.
struct TransportControlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Load, play, pause, stop, seek, loop or retime the sequence the daemon plays; playlists.",
        discussion: """
            The running daemon plays a sequence through its graph, from the source port \
            'midihub:sequence' (docs/transport.md). ACTION is one of:
              status            where the transport stands (the default)
              load FILE         a Standard MIDI File or .song, stopped at its start
              play              play, or resume after pause
              pause             stop where it is
              stop              stop and go back to the start
              seek POSITION     BAR, BAR:BEAT, SECONDSs (42.5s) or a marker's name
              loop FROM TO      loop the region (positions as for seek); 'loop off' ends it
              tempo BPM         play at BPM instead of the file's tempo; 'tempo file' goes back
              playlist FILE...  several songs in order, the first loaded; each plays on to the next
              next, previous    the song after or before this one (playing on if it played)
              repeat MODE       after a song's end: off (the next; stop after the last), one, all
              record [BARS]     stopped: count in BARS bars (1), then play and overdub; playing:
                                overdub now; recording: end the take (docs/transport.md)
            Each prints the status line afterwards. Stopping, pausing, seeking and looping \
            end the notes the sequence held; playing on restores each channel's program, \
            controllers and pitch bend at the new position.

            Examples:
              midihub transport load sequences/c-major-scale.mid
              midihub transport play
              midihub transport seek 2:1
              midihub transport loop 1 2
              midihub transport tempo 90
              midihub transport stop
              midihub transport playlist sequences/c-major-scale.mid sequences/waltz-in-six-eight.mid
              midihub transport repeat all
              midihub transport next
            """
    )

    @Argument(help: "status, load, play, pause, stop, seek, loop, tempo, playlist, next, previous, repeat or record.")
    var action: String = "status"

    @Argument(help: "The action's values: a file, a position, two positions, a tempo, files, a repeat mode, bars.")
    var values: [String] = []

    @Flag(help: "JSON: the status as one object (as the transport request answers).")
    var json = false

    func run() throws {
        let request = try Self.request(action: action, values: values)
        let status = try SetupCommandSupport.askDaemon("the transport", client: "midihub transport") { try $0.transport(request) }
        if json { return try printJSON(object: status) }
        print(Self.line(status))
    }

    /// The request for `action` and its values.
    /// - Throws: `ValidationError` for an unknown action or missing values.
    static func request(action: String, values: [String]) throws -> TransportRequest {
        guard let kind = TransportRequest.Action(rawValue: action) else {
            throw ValidationError("unknown action '\(action)' (fix: use one of "
                + TransportRequest.Action.allCases.map(\.rawValue).joined(separator: ", ") + ")")
        }
        let wanted: ClosedRange<Int> = switch kind {
        case .status, .play, .pause, .stop, .next, .previous: 0...0
        case .load, .seek, .tempo, .repeat: 1...1
        case .loop: values.first == "off" ? 1...1 : 2...2
        case .playlist: 1...Int.max
        case .record: 0...1
        }
        guard wanted.contains(values.count) else {
            let takes = wanted.upperBound == Int.max ? "files" : wanted.upperBound == 0 ? "no values"
                : wanted.upperBound == 2 ? "two positions" : wanted.lowerBound == 0 ? "at most one value" : "one value"
            throw ValidationError("'\(action)' takes \(takes) (fix: e.g. 'midihub transport \(Self.example(kind))')")
        }
        var request = TransportRequest(action: kind)
        switch kind {
        case .load:
            request.path = URL(fileURLWithPath: values[0]).standardizedFileURL.path
        case .playlist:
            request.paths = values.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        case .repeat:
            request.mode = values[0]
        case .record where !values.isEmpty:
            guard let bars = Int(values[0]) else {
                throw ValidationError("'\(values[0])' is not a number of bars (fix: e.g. 'midihub transport record 1')")
            }
            request.bars = bars
        case .seek:
            request.position = values[0]
        case .loop where values.count == 2:
            (request.from, request.to) = (values[0], values[1])
        case .tempo where values[0] != "file":
            guard let bpm = Double(values[0]), bpm >= 1, bpm <= 1000 else {
                throw ValidationError("tempo '\(values[0])' is not a number of BPM from 1 to 1000 (fix: e.g. 'midihub transport tempo 96', or 'tempo file')")
            }
            request.bpm = bpm
        default:
            break
        }
        return request
    }

    private static func example(_ action: TransportRequest.Action) -> String {
        switch action {
        case .load: "load song.mid"
        case .seek: "seek 9:1"
        case .loop: "loop 5 9"
        case .tempo: "tempo 96"
        case .playlist: "playlist a.mid b.mid"
        case .repeat: "repeat all"
        case .record: "record 1"
        default: action.rawValue
        }
    }

    /// `playing 'song.mid' at 3:2 (0:04.5 / 0:12.0), 120 BPM, loop 2:1 to 4:1`, and
    /// `, following master's clock at 100.02 BPM (jitter 0.4 ms, drift -0.1 ms)` when a clock leads.
    static func line(_ status: TransportStatus) -> String {
        var line: String
        if let song = status.song {
            line = "\(status.state) '\(song)' at \(status.position) "
                + "(\(StatusLine.clock(status.seconds)) / \(StatusLine.clock(status.duration))), "
                + "\(Self.number(status.tempo)) BPM"
            if status.tempoOverride && status.clock == nil { line += " (override)" }
            if let loop = status.loop { line += ", loop \(loop.from) to \(loop.to)" }
            if status.recording == true { line += ", recording" }
            if let place = status.playlist {
                line += ", song \(place.song) of \(place.count)" + (place.repeat == "off" ? "" : ", repeat \(place.repeat)")
            }
        } else {
            line = "\(status.state), no sequence loaded"
        }
        if let clock = status.clock { line += ", " + Self.following(clock) }
        return line
    }

    private static func following(_ clock: TransportStatus.ClockFollow) -> String {
        guard let tempo = clock.tempo else { return "following \(clock.node)'s clock (none comes)" }
        let details = [clock.jitter.map { "jitter \(String(format: "%.1f", $0)) ms" },
                       clock.drift.map { "drift \(String(format: "%.1f", $0)) ms" }].compactMap(\.self)
        return "following \(clock.node)'s clock at \(Self.number(tempo)) BPM"
            + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))") + (clock.running ? "" : ", stopped")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }
}
