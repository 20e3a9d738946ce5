import ArgumentParser
import Foundation
import MIDICore
import Sequencer
import Synth

/// `midihub render FILE -o out.wav`: renders a sequence through the instrument to a
/// WAV file as fast as the machine can. Events sound at frame round(t × rate).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a MIDI file through a SoundFont, the built-in synth or a patch's graph to a WAV file, offline.",
        discussion: """
            Renders as fast as the machine can (no sound card needed); an event at time t \
            sounds at frame round(t × sample rate). After the file's end the render goes on \
            until the sound has died away (half a second below the format's smallest step), \
            at most 30 s, so releases and reverb end as they would. A progress bar is drawn \
            on a terminal.
            The instrument is the SoundFont instrument playing an installed General MIDI \
            font (FluidR3_GM from fluid-soundfont-gm) unless --instrument synth or \
            --preset-bank picks the built-in synth.
            With --patch, the song plays through the patch's graph as 'serve --patch' would \
            play it from the transport: it enters at the source nodes that take \
            'midihub:sequence', goes through the routes and MIDI processors, and what the first \
            output device would play is written (LV2 plugins, built-in instruments and effects, \
            their presets and parameter values as the patch sets them); other apps' ports and \
            audio inputs are left out, said in one line.
            The audio goes to a hidden temporary file beside the output (.NAME.PID.partial), \
            which is synced and renamed to the output name only when the render is complete: \
            an error, Ctrl-C or SIGTERM removes it and leaves no file under the output name \
            (exit status 130 for Ctrl-C, 143 for SIGTERM).

            Examples:
              midihub render sequences/little-song.mid -o song.wav
              midihub render sequences/little-song.song -o song.wav --sample-rate 96000 --format f32
              midihub render sequences/little-song.mid -o song.wav --soundfont /usr/share/sounds/sf2/FluidR3_GM.sf2
              midihub render sequences/little-song.mid -o song.wav --instrument synth
              midihub render sequences/little-song.mid -o song.wav --patch patches/lv2-render.yaml
            """)

    @Argument(help: "The sequence to render: a Standard MIDI File or a text sequence (.song).")
    var file: String

    @Option(name: .shortAndLong, help: "The WAV file to write.")
    var output: String

    @Option(help: "Sample rate: 44100, 48000 or 96000.")
    var sampleRate: Int = 48_000

    @Option(help: "Sample format: s16, s24 or f32.")
    var format: WAVSampleFormat = .s16

    @Option(help: "Folder of .preset files (default: $MIDIHUB_PRESETS, then patches/presets near the executable).")
    var presetBank: String?

    @OptionGroup(title: "Instrument")
    var instrument: InstrumentArguments

    @Option(help: "Play the song through this patch's graph (YAML) instead of one instrument.")
    var patch: String?

    @Option(help: "Frames per render block (16…4096).")
    var blockSize: Int = 512

    func validate() throws {
        guard [44_100, 48_000, 96_000].contains(sampleRate) else {
            throw ValidationError("--sample-rate \(sampleRate) is not supported (fix: use 44100, 48000 or 96000)")
        }
        guard (16...4096).contains(blockSize) else {
            throw ValidationError("--block-size \(blockSize) is out of range (fix: use 16…4096)")
        }
        let instrumentOptions = [(instrument.instrument != nil, "--instrument"), (instrument.soundfont != nil, "--soundfont"),
                                 (presetBank != nil, "--preset-bank")].filter(\.0).map(\.1)
        if patch != nil, let first = instrumentOptions.first {
            throw ValidationError("--patch plays the patch's own instruments, so \(first) does not go with it "
                                  + "(fix: drop \(first), or drop --patch)")
        }
    }

    func run() throws {
        let sequence = try SequenceFile.load(path: file)
        let setup = try patch.map { try RenderSetup(patch: $0, song: sequence, sampleRate: sampleRate, blockSize: blockSize) }
            ?? RenderSetup(try InstrumentChoice(instrument, presetBank: presetBank, offline: true), song: sequence,
                          sampleRate: sampleRate)
        let schedule = setup.schedule
        let longest = WAVFileWriter.maximumFrames(format: format)
        guard schedule.endFrame.index <= longest else {
            // Checked before a byte is rendered: huge delta times would otherwise fill the disk first.
            let seconds = { (frames: Int64) in StatusLine.clock(Double(frames) / Double(sampleRate)) }
            throw CLIError("\(file) lasts \(seconds(schedule.endFrame.index)); a WAV file holds at most \(seconds(longest)) "
                           + "at \(sampleRate) Hz with \(format) samples",
                           fix: "check the file's delta times and tempo ('midihub info \(file)'), or render at a lower rate",
                           exitCode: CLIError.badInput)
        }
        let renderer = OfflineRenderer(schedule: schedule, nodes: setup.nodes, ids: setup.ids, wiring: setup.wiring,
                                       blockSize: blockSize,
                                       tail: .untilSilent(threshold: format.silence, maximum: RenderTail.longestSeconds))
        var writer: WAVFileWriter
        do {
            writer = try WAVFileWriter(path: output, format: format, sampleRate: sampleRate)
        } catch {
            throw CLIError(error.problem, fix: error.fix)
        }

        let progress = ProgressBar(enabled: isatty(STDERR_FILENO) != 0)
        let started = ContinuousClock.now
        SignalTrap.install()
        do {
            try renderer.render(into: &writer) { fraction in
                if let signal = SignalTrap.caught { throw RenderInterrupted(signal: signal) }
                progress.show(fraction)
            }
            if let font = setup.font, setup.fontFileChanged {
                // What the file lost played as silence: a wrong render is not written.
                throw CLIError("the SoundFont \(font.path) changed on disk while rendering; \(output) was not written",
                               fix: "render again once the font file stays as it is")
            }
            try writer.finish()
        } catch let interruption as RenderInterrupted {
            writer.discard()
            progress.clear()
            FileHandle.standardError.write(Data("midihub: render interrupted; \(output) was not written\n".utf8))
            throw ExitCode(128 + interruption.signal)
        } catch let error as WAVWriteError {
            writer.discard()
            progress.clear()
            throw CLIError(error.problem, fix: error.fix)
        } catch {
            writer.discard()
            progress.clear()
            throw error
        }
        progress.clear()
        let elapsed = ContinuousClock.now - started
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let audioSeconds = Double(renderer.position.index) / Double(sampleRate)
        print(String(format: "wrote %@: %.1f s of audio in %.2f s (%.0f× real time)", output, audioSeconds, seconds,
                     audioSeconds / max(seconds, 1e-9)))
        if renderer.engine.droppedEvents > 0 {
            print("warning: \(renderer.engine.droppedEvents) events did not fit into their block and were dropped")
        }
    }
}

extension WAVSampleFormat: ExpressibleByArgument {}

/// Ctrl-C (or SIGTERM) arrived while rendering: the temporary file is removed and nothing
/// is written under the output name.
private struct RenderInterrupted: Error {
    let signal: Int32
}

/// A one-line progress bar on standard error, drawn only on a terminal.
private final class ProgressBar {
    private let enabled: Bool
    private var lastPercent = -1

    init(enabled: Bool) { self.enabled = enabled }

    func show(_ fraction: Double) {
        guard enabled else { return }
        let percent = Int(min(max(fraction, 0), 1) * 100)
        guard percent != lastPercent else { return }
        lastPercent = percent
        let width = 40
        let filled = percent * width / 100
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        FileHandle.standardError.write(Data("\r[\(bar)] \(percent)%".utf8))
    }

    func clear() {
        guard enabled, lastPercent >= 0 else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
