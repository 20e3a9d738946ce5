import ALSA
import ArgumentParser
import Foundation
import MIDICore

/// `midihub play FILE --port PORT[,PORT]`: plays a file to ports through an ALSA queue.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a MIDI file to sequencer ports through an ALSA queue (like aplaymidi).",
        discussion: """
            The kernel delivers every event at its tick with the file's tempo map, as \
            aplaymidi does. With several ports, each track goes to the port its MIDI Port \
            meta event picks (0 = the first; none = the first). On a terminal a \
            'position / duration' line shows progress.

            Ctrl-C (or SIGTERM) stops at once: pending events are dropped, sounding notes \
            get note-offs, and every channel used gets All Notes Off (CC 123) and Sustain \
            off (CC 64 = 0); the exit status is then 130 (143 for SIGTERM).

            Examples:
              midihub play sequences/example.mid --port 14:0
              midihub play song.mid --port 'FLUID Synth'
              midihub play multi.mid --port 20:0,21:0
            """
    )

    @Argument(help: "The file to play (Standard MIDI File).")
    var file: String

    @Option(help: "Destination port(s), comma-separated: 20:0, a client or port name, or a prefix.")
    var port: String

    func run() throws {
        SignalTrap.install()
        let midiFile = try SequenceFile.load(path: file)
        let session = try SequencerSession()
        let destinations = try session.resolveList(port, as: .destination).map(\.address)
        let player = FilePlayer(client: session.client,
                                schedule: try PlaybackSchedule(file: midiFile, portCount: destinations.count),
                                tempoMap: TempoMap(file: midiFile), destinations: destinations,
                                statusLine: StatusLine.onTerminal())
        if case .interrupted(let signal) = try player.play() {
            throw ExitCode(128 + signal)
        }
    }
}
