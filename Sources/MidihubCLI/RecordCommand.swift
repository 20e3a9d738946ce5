import ALSA
import ArgumentParser
import Foundation
import MIDICore
import Sequencer
import Transport
import Control

/// `midihub record OUT.mid --port PORT`: records what arrives from sequencer ports into a
/// Standard MIDI File (or `.song`), like `arecordmidi`; `midihub record OUT.wav` records
/// what the running daemon plays.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record MIDI from sequencer ports into a file (like arecordmidi), or the daemon's sound to WAV.",
        discussion: """
            Every event that arrives from the ports is stamped by the kernel on arrival and \
            kept at its tick: the file counts --ticks per quarter note at --bpm, from the \
            moment recording starts, as arecordmidi's -b and -t. The file has a conductor \
            track (the tempo, 4/4) and one track per port, named after it; with \
            --split-channels one per port and channel that played. Channel messages and \
            SysEx are kept; clock and other system messages are not.

            When ready, one line goes to stderr: 'midihub: recording 20:0 to OUT.mid \
            (Ctrl-C ends it)'. Ctrl-C or SIGTERM (or --seconds running out) ends the \
            recording: the file is written whole (a temporary file renamed over OUT), with \
            everything recorded so far, and the exit status is 0. OUT ends in .mid (a \
            Standard MIDI File) or .song (the text format).

            OUT ending in .wav records what the running daemon ('midihub serve') plays \
            instead, 16-bit stereo at its rate, until Ctrl-C or --seconds: the render \
            thread hands each block to a writer thread, so the disk never holds up the \
            sound (docs/transport.md#recording). No --port then. --node NAME records one \
            node's output instead of the master: an instrument before its effects, a mixer \
            strip, a reverb bus ('midihub nodes' lists them).

            Examples:
              midihub record /tmp/take.mid --port 'Virtual Raw MIDI 1-0' --seconds 1
              midihub record /tmp/take.song --port 20:0 --bpm 96 --ticks 480 --split-channels --seconds 1
              midihub record /tmp/mix.wav --seconds 2
              midihub record /tmp/synth.wav --node synth --seconds 2
            """
    )

    @Argument(help: "The file to write: .mid or .song.")
    var output: String

    @Option(help: "Source port(s), comma-separated: 20:0, a client or port name, or a prefix (not for .wav).",
            completion: NameCompletion.ports(.source))
    var port: String?

    @Option(help: "Quarter notes per minute the file's ticks count at (arecordmidi -b).")
    var bpm: Double = 120

    @Option(help: "Ticks per quarter note (arecordmidi -t).")
    var ticks: Int = 384

    @Flag(help: "One track per port and channel instead of one per port.")
    var splitChannels = false

    @Option(help: "For .wav: the node whose output to record (default: the master output).", completion: NameCompletion.nodes)
    var node: String?

    @Option(help: "Stop after this many seconds (default: at Ctrl-C).")
    var seconds: Double?

    func validate() throws {
        guard bpm >= 4, bpm <= 1000 else { throw ValidationError("--bpm \(bpm) is outside 4…1000 (fix: e.g. --bpm 120)") }
        guard (1...32767).contains(ticks) else { throw ValidationError("--ticks \(ticks) is outside 1…32767 (fix: e.g. --ticks 384)") }
        if let seconds, !(seconds > 0) { throw ValidationError("--seconds must be above 0 (fix: e.g. --seconds 60)") }
        if Self.isAudio(output) {
            if port != nil { throw ValidationError("a .wav records the daemon's sound, not ports (fix: drop --port, or write OUT.mid)") }
            return
        }
        if node != nil { throw ValidationError("--node records a node's sound into a .wav (fix: write OUT.wav, or drop --node)") }
        guard port != nil else { throw ValidationError("--port names what to record (fix: e.g. --port 20:0, or OUT.wav for the daemon's sound)") }
        do {
            _ = try SequenceFile.Kind(path: output)
        } catch let error as CLIError {
            throw ValidationError(error.fix.map { "\(error.problem) (fix: \($0))" } ?? error.problem)
        }
    }

    private static func isAudio(_ path: String) -> Bool {
        path.lowercased().hasSuffix(".wav")
    }

    func run() throws {
        SignalTrap.install()
        if Self.isAudio(output) { return try recordDaemonAudio() }
        let session = try SequencerSession()
        let client = session.client
        let sources = try session.resolveList(port ?? "", as: .source)
        let queue = try client.makeQueue(name: "midihub record")
        let input = try client.createPort(name: "record", capabilities: .destination, timestampQueue: queue)
        try client.start(queue)
        for source in sources { try client.subscribe(sender: source.address, destination: input.address) }
        var recording = MIDIRecording(options: .init(beatsPerMinute: bpm, ticksPerQuarter: ticks, splitChannels: splitChannels),
                                      sources: sources.map { "\($0.clientName):\($0.portName)" })
        printError("midihub: recording \(sources.map(\.address.description).joined(separator: ", ")) to \(output) (Ctrl-C ends it)")
        let index = Dictionary(sources.enumerated().map { ($1.address, $0) }, uniquingKeysWith: { first, _ in first })
        var clock = ArrivalClock()
        while SignalTrap.caught == nil {
            if let seconds, try client.status(of: queue).time.seconds >= seconds { break }
            guard let event = try client.receive(milliseconds: 100) else { continue }
            guard case .message(let message, let source, let time) = event, let which = index[source] else { continue }
            // The queue started with the take: its real time is the time since the start.
            recording.record(message, after: (clock.time(of: time) ?? .origin).sinceOrigin, source: which)
        }
        let length = try client.status(of: queue).time.sinceOrigin
        try SequenceFile.save(recording.file(endingAfter: length), path: output)
        printError("midihub: recorded \(recording.count) events in \(StatusLine.clock(length.seconds)) to \(output)")
    }

    /// Asks the running daemon to record what it plays to `output` until Ctrl-C or --seconds.
    private func recordDaemonAudio() throws {
        let path = URL(fileURLWithPath: output).standardizedFileURL.path
        try SetupCommandSupport.askDaemon("recording the daemon's sound", client: "midihub record") { client in
            _ = try client.recordAudio(AudioRecordRequest(path: path, node: node))
            printError("midihub: recording \(what) to \(output) (Ctrl-C ends it)")
            let started = Date()
            while SignalTrap.caught == nil, seconds.map({ Date().timeIntervalSince(started) < $0 }) ?? true {
                usleep(20_000)
            }
            let summary = try client.recordAudio(AudioRecordRequest(stop: true))
            printError("midihub: recorded \(StatusLine.clock(summary.seconds ?? 0)) of \(what) to \(output)")
        }
    }

    /// What a .wav records, for the progress lines.
    private var what: String { node.map { "node '\($0)'" } ?? "the daemon's sound" }
}
