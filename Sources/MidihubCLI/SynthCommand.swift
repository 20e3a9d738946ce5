import ALSA
import ArgumentParser
import Foundation

/// `midihub synth`: an instrument (a SoundFont or the built-in synth) as an ALSA sequencer instrument. Events that arrive
/// at its port `midihub synth:in` play one period after their arrival, at their exact
/// offset (constant latency, no jitter).
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Play live MIDI through a SoundFont or the built-in synth to an ALSA PCM device.",
        discussion: """
            Opens the sequencer port 'midihub synth:in' and plays every channel message \
            that arrives there. Each event is stamped on arrival and sounds exactly one \
            period later (--period frames): the latency is constant, whatever the event's \
            position inside a block. Connect sources with --connect (repeatable, or \
            comma-separated) or later with 'midihub connect SRC "midihub synth"'.

            When ready, one line goes to stderr: \
            'midihub: synth listening on 128:0 (midihub synth:in), playing to <device settings>'. \
            On a terminal a status line shows active voices and underruns. Ctrl-C or \
            SIGTERM fades out and exits with status 0; a device that disappears ends it \
            with an error.

            Examples:
              midihub synth --connect 'Virtual Raw MIDI 1-0'
              midihub synth --device plughw:1,0 --period 64
            """
    )

    @Option(parsing: .singleValue, help: "A source port to connect to the synth's input (repeatable).",
            completion: NameCompletion.ports(.source))
    var connect: [String] = []

    @OptionGroup(title: "Audio output")
    var audio: AudioOutputArguments

    @OptionGroup(title: "Instrument")
    var instrument: InstrumentArguments

    func run() throws {
        SignalTrap.install()
        let output = try SynthOutput(audio, instrument: instrument)
        let session = try SequencerSession(name: "midihub synth")
        let client = session.client
        let input = try client.createPort(name: "in", capabilities: .destination,
                                          types: [.midiGeneric, .application, .synthesizer])
        for source in try connect.flatMap({ try session.resolveList($0, as: .source) }) {
            try client.subscribe(sender: source.address, destination: input.address)
        }
        try output.start()
        printError("midihub: synth listening on \(input.address) (midihub synth:in), playing to \(output.driver.settings)")
        let status = SynthStatusLine.onTerminal(driver: output.driver)
        defer { status?.finish() }
        while SignalTrap.caught == nil && output.driver.isRunning {
            if case .message(let message, _, _)? = try client.receive(milliseconds: 100) {
                output.driver.live.push(message)
            }
            status?.show(output.driver.counters)
        }
        try output.stop()
    }
}
