import ArgumentParser
import Control
import Foundation

/// The `midihub` command: the root lists the subcommands; each lives in its own file.
/// The executable's `main.swift` calls `Midihub.main()`; tests parse and run the same type.
public struct Midihub: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "midihub",
        abstract: "A Linux MIDI hub and sequencer on the ALSA sequencer.",
        discussion: """
            Ports are named as aconnect names them: 'client:port' numbers (20:0), a client \
            number alone (20 = 20:0), a client or port name, 'client name:port', or an \
            unambiguous prefix of a name, ignoring case ('virt' for 'Virtual Raw MIDI 1-0').

            Errors are one line on stderr: 'midihub: <problem> (fix: <what to do>)'. \
            Exit codes: 0 success, 1 runtime failure (device, I/O), 2 bad input \
            (unknown option, bad value, unknown or ambiguous port, malformed file, bad hex).

            Examples:
              midihub ports
              midihub connect 'Virtual Raw MIDI 1-0' 'Midi Through'
              midihub monitor --json
              midihub send 20:0 90 3c 64 80 3c 00
              midihub play sequences/c-major-scale.mid --port 14:0
              midihub synth --connect 'Virtual Raw MIDI 1-0'
              midihub help render
            """,
        version: MidihubVersion.current,
        subcommands: [
            PortsCommand.self, ConnectCommand.self, DisconnectCommand.self,
            MonitorCommand.self, SendCommand.self, PlayCommand.self, RecordCommand.self, TransportControlCommand.self,
            InfoCommand.self, ConvertCommand.self, RenderCommand.self, SynthCommand.self, SoundFontCommand.self,
            ServeCommand.self, NodesCommand.self, GraphCommand.self, RulesCommand.self, MappingsCommand.self, LearnCommand.self,
            SceneCommand.self, TriggerCommand.self, WidgetsCommand.self, PatchCommand.self, RemoteCommand.self,
            NetworkCommand.self, PluginsCommand.self, PresetCommand.self, OSCCommand.self, PluginChildCommand.self,
        ]
    )

    public init() {}

    /// Parses the process's arguments, runs the command and exits with its status.
    /// - Thread: main.
    public static func main() -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch {
            let ending = CommandEnding(error, arguments: arguments)
            if let text = ending.text {
                if ending.toStandardError {
                    printError(text)
                } else {
                    print(text)
                }
            }
            Foundation.exit(ending.exitCode)
        }
    }
}
