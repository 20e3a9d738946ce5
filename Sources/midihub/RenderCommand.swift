import ArgumentParser
import Foundation
import MIDICore
import Sequencer
import Synth

/// `midihub render FILE -o out.wav`: renders a sequence through the built-in synth to a
/// WAV file as fast as the machine can. Events sound at frame round(t × rate).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render a MIDI file through the built-in synth to a WAV file, offline.")

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

    @Option(help: "Frames per render block (16…4096).")
    var blockSize: Int = 512

    func validate() throws {
        guard [44_100, 48_000, 96_000].contains(sampleRate) else {
            throw ValidationError("--sample-rate \(sampleRate) is not supported (fix: use 44100, 48000 or 96000)")
        }
        guard (16...4096).contains(blockSize) else {
            throw ValidationError("--block-size \(blockSize) is out of range (fix: use 16…4096)")
        }
    }

    func run() throws {
        let sequence = try SequenceFile.load(path: file)
        let bank = try PresetBankLoader.loadForCommandLine(override: presetBank)
        let schedule = RenderSchedule(file: sequence, sampleRate: Double(sampleRate))
        let renderer = OfflineRenderer(schedule: schedule, nodes: StandardGraph.nodes(bank: bank), blockSize: blockSize)
        var writer: WAVFileWriter
        do {
            writer = try WAVFileWriter(path: output, format: format, sampleRate: sampleRate)
        } catch {
            throw CLIError(error.problem, fix: error.fix)
        }

        let progress = ProgressBar(enabled: isatty(STDERR_FILENO) != 0)
        let started = ContinuousClock.now
        do {
            try renderer.render(into: &writer) { progress.show($0) }
            try writer.finish()
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
        let audioSeconds = Double(renderer.totalFrames) / Double(sampleRate)
        print(String(format: "wrote %@: %.1f s of audio in %.2f s (%.0f× real time)", output, audioSeconds, seconds,
                     audioSeconds / max(seconds, 1e-9)))
        if renderer.engine.droppedEvents > 0 {
            print("warning: \(renderer.engine.droppedEvents) events did not fit into their block and were dropped")
        }
    }
}

extension WAVSampleFormat: ExpressibleByArgument {}

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
