import ArgumentParser
import RTPMIDI
import AudioHost
import Control
import Daemon
import Foundation
import Plugins
import Glibc
import Hub
import MIDICore
import Remote

/// `midihub serve`: the hub service. See docs/daemon.md.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the hub: route MIDI between devices, apps and the built-in synth.",
        // Written out: past a length, the generated usage shortens to "midihub serve <options>".
        usage: "midihub serve [--patch <patch>] [--state <state>] [--no-audio] [--audio <system>] [--receiver-timeout <seconds>] "
            + "[--remote <[address:]port>] [--osc <[address:]port>] [--allow <network> ...] [--device <device>] [--period <period>] [--buffer <buffer>] "
            + "[--sample-rate <sample-rate>] [--preset-bank <preset-bank>] [--instrument <name>] [--soundfont <soundfont>]",
        discussion: """
            Opens the sequencer client 'midihub' (ports 'in' and 'out'), applies the connection \
            rules whenever ports come and go, routes what arrives through the graph's processors \
            to the instruments (played to a PCM device) and to external nodes, and serves the \
            control socket ($XDG_RUNTIME_DIR/midihub/control.sock). With no patch and no saved \
            state, every hardware MIDI input plays the General MIDI SoundFont when one is \
            installed (as render and play choose it), else the built-in synth; a patch's \
            'instrument: midihub soundfont' nodes play the same font. Logs one line per event \
            on stderr. The patch file (--patch, or the last one 'midihub patch load' loaded) is \
            reloaded when it changes on disk and on SIGHUP; a broken edit is logged with its \
            file:line:column and the running setup stays. SIGINT or SIGTERM stops it cleanly. Under systemd (Type=notify) it \
            reports readiness, its status and the watchdog through $NOTIFY_SOCKET. With --remote, \
            it also serves the web remote, the hub in a browser (docs/remote.md): 'midihub remote' \
            prints the URL to open, with its token. With --osc, it takes OSC from control surfaces \
            (docs/osc.md). With --allow, OSC and RTP-MIDI invitations come only from those \
            networks and this machine. With --audio jack, the graph plays into JACK as the \
            JACK client 'midihub' (ports 'left' and 'right'), rendered in JACK's process \
            callback; --audio auto chooses JACK when a server runs (docs/jack.md).

            Examples:
              midihub serve
              midihub serve --patch patches/keyboard-split.yaml --device plughw:1,0
              midihub serve --no-audio --state /tmp/hub.json
              midihub serve --instrument synth
              midihub serve --remote 0.0.0.0:8080
              midihub serve --osc 9000
              midihub serve --osc 0.0.0.0:9000 --allow 192.168.1.0/24
              midihub serve --audio jack
            """
    )

    @Option(help: "A patch (YAML) to start with, instead of the saved state.")
    var patch: String?

    @Option(help: "State file (default: $XDG_STATE_HOME/midihub/state.json).")
    var state: String?

    @Flag(help: "Run MIDI-only: no synth, no PCM device.")
    var noAudio = false

    @Option(name: .customLong("audio"), help: ArgumentHelp(
        "Where the sound goes: 'alsa' (the PCM device: --device, else the first output node's), 'jack' (a JACK client, "
            + "its ports connected to the system's playback), or 'auto' (JACK when a server runs, else ALSA).",
        valueName: "system"))
    var audioSystem: AudioBackendChoice = .alsa

    @Option(help: ArgumentHelp(
        "Seconds another program's port may take no MIDI while MIDI waits for it; then the hub gives up on it "
            + "(its waiting MIDI discarded) until it reads again.", valueName: "seconds"))
    var receiverTimeout: Double = 60

    @Option(help: ArgumentHelp(
        "Serve the web remote on this TCP port (on 127.0.0.1, this machine only, unless ADDRESS says another: "
            + "0.0.0.0 for every network).", valueName: "[address:]port"))
    var remote: ListenAddress?

    @Option(help: ArgumentHelp(
        "Take OSC over UDP and TCP on this port, from control surfaces such as TouchOSC or Open Stage Control (on 127.0.0.1 "
            + "unless ADDRESS says another; docs/osc.md).", valueName: "[address:]port"))
    var osc: ListenAddress?

    @Option(help: ArgumentHelp(
        "Take OSC and RTP-MIDI invitations only from this network (CIDR: 192.168.1.0/24, an address, fd00::/8; "
            + "repeat for more) and this machine; others are refused (docs/daemon.md).", valueName: "network"),
            transform: { text in try PeerAllowList.Network(parsing: text) })
    var allow: [PeerAllowList.Network] = []

    @Flag(help: ArgumentHelp("Run every LV2 plugin node in a process of its own, restarted when it crashes or hangs, unless "
            + "its patch says `isolate: false` (docs/plugins.md)."))
    var isolatePlugins = false

    @OptionGroup(title: "Audio output")
    var audio: AudioOutputArguments

    @OptionGroup(title: "Instrument")
    var instrument: InstrumentArguments

    func run() throws {
        guard receiverTimeout >= 1, receiverTimeout <= 86_400 else {
            throw CLIError("--receiver-timeout \(receiverTimeout) is out of range",
                           fix: "give 1 to 86400 seconds", exitCode: CLIError.badInput)
        }
        SignalTrap.install([SIGINT, SIGTERM, SIGHUP])
        let log = DaemonLog()
        let systemd: SystemdNotifier?
        do {
            systemd = try SystemdNotifier.fromEnvironment()
        } catch {
            log.warning(error.description)
            systemd = nil
        }
        let options = DaemonOptions(
            patchPath: patch, device: audio.device, statePath: state ?? StateStore.defaultPath(), audio: !noAudio, audioBackend: audioSystem,
            presetBank: audio.presetBank, soundFont: noAudio ? nil : try InstrumentChoice.fontPath(instrument, presetBank: audio.presetBank),
            driverOptions: audio.driverOptions, receiverTimeout: HostDuration(seconds: receiverTimeout), remote: remote,
            osc: osc, allowList: PeerAllowList(networks: allow), pluginIsolation: PluginIsolation(byDefault: isolatePlugins))
        let daemon: HubDaemon
        do {
            daemon = try HubDaemon(options: options, log: log, systemd: systemd)
            try daemon.start()
        } catch let error as DaemonError {
            log.flush()  // the warnings that led here come first
            if case .badSetup = error { throw CLIError(error.description, fix: nil, exitCode: CLIError.badInput) }
            throw CLIError(error.description, fix: nil)
        }
        // The main thread watches the patch file (once a second) and takes SIGHUP as "reload".
        var tick = 0
        while true {
            if SignalTrap.take(SIGHUP) { daemon.reloadPatch() }
            if let signal = SignalTrap.caught {
                daemon.stop(reason: SignalTrap.name(of: signal))
                break
            }
            tick += 1
            if tick % 5 == 0 { daemon.reloadPatchIfChanged() }
            usleep(200_000)
        }
        // Stopped and saved: the process ends here without tearing the daemon down. Freeing
        // RtMidi's JACK clients after their server died and came back crashes inside libjack
        // (a null callback, seen in vm/45), and the kernel releases everything else.
        Glibc.exit(0)
    }
}

extension AudioBackendChoice: ExpressibleByArgument {}

extension ListenAddress: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(parsing: argument)
    }
}
