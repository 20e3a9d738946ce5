import ALSA
import ArgumentParser
import AudioHost
import RenderCore
import Sequencer
import Synth

/// The options of every command that plays an instrument to an ALSA PCM device:
/// `play`, `synth` and `serve`.
struct AudioOutputArguments: ParsableArguments {
    @Option(help: "ALSA playback device: default, hw:1,0, plughw:1,0, … ('aplay -L' lists them; default: 'default', for serve the patch's output node first).")
    var device: String?

    @Option(help: "Frames per period, which is also the render block (16…4096).")
    var period = 256

    @Option(help: "Frames in the device buffer, the output latency (default: 4 periods).")
    var buffer: Int?

    @Option(help: "Sample rate: 44100, 48000 or 96000 (the device's nearest is used).")
    var sampleRate = 48_000

    @Option(help: "Folder of .preset files (default: $MIDIHUB_PRESETS, then patches/presets near the executable).")
    var presetBank: String?

    /// What the options ask of the device; checked when the device is opened (bad values: exit 2).
    var driverOptions: AudioDriverOptions {
        AudioDriverOptions(pcm: PCMConfiguration(sampleRate: sampleRate, periodFrames: period, bufferFrames: buffer))
    }
}

/// An instrument playing to a device: the driver, its engine and the instrument's voice meter.
///
/// - Thread: control.
struct SynthOutput {
    let driver: AudioDriver
    let engine: RenderEngine
    let voiceMeter: VoiceMeter?

    /// Loads the instrument (its font or preset bank) and opens the device; the caller starts it.
    /// - Throws: `CLIError` for a bad bank (exit 2) or a device that cannot be opened (exit 1).
    init(_ arguments: AudioOutputArguments, instrument choice: InstrumentArguments) throws {
        let instrument = try InstrumentChoice(choice, presetBank: arguments.presetBank)
        instrument.font?.file.sampleData.warmPageCache()  // no disk read on the render thread when a program first plays
        do {
            driver = try AudioDriver(device: arguments.device ?? "default", options: arguments.driverOptions)
        } catch {
            throw CLIError(error)
        }
        engine = RenderEngine()
        engine.install(instrument.graph.program(format: driver.renderFormat))
        voiceMeter = instrument.voiceCount
    }

    /// Starts the render thread; prints the warning when realtime priority is refused.
    func start(schedule: RenderSchedule? = nil) throws {
        do {
            if case .denied(let warning) = try driver.start(engine: engine, schedule: schedule, voiceMeter: voiceMeter) {
                printError(warning)
            }
        } catch {
            throw CLIError(error.description, fix: "close other programs or raise the process limit (ulimit -u)")
        }
    }

    /// Fades out, drains and closes the device.
    /// - Throws: `CLIError` when playback ended because the device failed or went away.
    func stop() throws {
        do {
            try driver.stop()
        } catch {
            throw CLIError(error)
        }
    }
}

extension CLIError {
    /// A `PCMError` as one line: its text reads "problem; fix".
    init(_ error: PCMError) {
        let text = error.description
        let badInput: Bool = switch error {
        case .invalidOption, .unknownSampleFormat: true
        default: false
        }
        let code = badInput ? CLIError.badInput : CLIError.runtimeFailure
        if let split = text.range(of: "; ") {
            self.init(String(text[..<split.lowerBound]), fix: String(text[split.upperBound...]), exitCode: code)
        } else {
            self.init(text, fix: nil, exitCode: code)
        }
    }
}
