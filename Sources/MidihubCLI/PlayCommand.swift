import ALSA
import ArgumentParser
import Foundation
import MIDICore

/// `midihub play FILE`: plays a file through the instrument to an ALSA PCM device, or
/// with `--port PORT[,PORT]` to sequencer ports through an ALSA queue.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a sequence through a SoundFont or the built-in synth, or to sequencer ports with --port.",
        discussion: """
            While 'midihub serve' runs, the daemon plays the file through its graph (its \
            transport: docs/transport.md), so both never fight over the sound card; this \
            command follows it to the end and Ctrl-C stops it. --alone plays here instead.

            Without --port the instrument (see --instrument) plays the file to an ALSA PCM device \
            (--device, default 'default'); every event sounds at its exact frame. On a \
            terminal a status line shows position / duration, bar:beat, active voices and \
            underruns. Ctrl-C fades out, silences every channel and exits with status 130. \
            Without a sound card, write a WAV file with 'midihub render' instead.

            With --port, the kernel delivers every event at its tick with the file's tempo map, as \
            aplaymidi does. With several ports, each track goes to the port its MIDI Port \
            meta event picks (0 = the first; none = the first). On a terminal a \
            'position / duration' line shows progress.

            Ctrl-C (or SIGTERM) stops at once: pending events are dropped, sounding notes \
            get note-offs, and every channel used gets All Notes Off (CC 123) and Sustain \
            off (CC 64 = 0); the exit status is then 130 (143 for SIGTERM).

            Examples:
              midihub play sequences/c-major-scale.mid
              midihub play sequences/c-major-scale.mid --device plughw:1,0 --period 128
              midihub play sequences/c-major-scale.mid --port 14:0
              midihub play sequences/waltz-in-six-eight.mid --port 'FLUID Synth'
              midihub play sequences/expression.mid --port 20:0,21:0
            """
    )

    @Argument(help: "The file to play: a Standard MIDI File or a text sequence (.song).")
    var file: String

    @Option(help: "Destination port(s), comma-separated: 20:0, a client or port name, or a prefix. Without it, the instrument plays.",
            completion: NameCompletion.ports(.destination))
    var port: String?

    @Flag(help: "Play in this process even while 'midihub serve' runs (else the daemon plays the file through its graph).")
    var alone = false

    @OptionGroup(title: "Audio output (without --port)")
    var audio: AudioOutputArguments

    @OptionGroup(title: "Instrument (without --port)")
    var instrument: InstrumentArguments

    func run() throws {
        SignalTrap.install()
        let midiFile = try SequenceFile.load(path: file)
        guard let port else {
            if !alone, let outcome = try DaemonPlayback(path: file, statusLine: StatusLine.onTerminal()).playIfServing() {
                if case .interrupted(let signal) = outcome { throw ExitCode(128 + signal) }
                return
            }
            if case .interrupted(let signal) = try SynthPlayback(file: midiFile, audio: audio, instrument: instrument).play() {
                throw ExitCode(128 + signal)
            }
            return
        }
        let session = try SequencerSession()
        let destinations = try session.resolveList(port, as: .destination).map(\.address)
        let player = FilePlayer(session: session,
                                schedule: try PlaybackSchedule(file: midiFile, portCount: destinations.count),
                                tempoMap: TempoMap(file: midiFile), destinations: destinations,
                                statusLine: StatusLine.onTerminal())
        if case .interrupted(let signal) = try player.play() {
            throw ExitCode(128 + signal)
        }
    }
}
