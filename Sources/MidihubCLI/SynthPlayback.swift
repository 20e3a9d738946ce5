import Foundation
import MIDICore
import Sequencer

/// `midihub play FILE` without `--port`: the sequence through the instrument to an
/// ALSA PCM device, every event at its exact frame (the frame clock is frames rendered).
///
/// - Thread: the main thread (it watches the driver and the signals).
struct SynthPlayback {
    let file: MIDIFile
    let audio: AudioOutputArguments
    let instrument: InstrumentArguments

    enum Outcome: Equatable {
        case finished
        case interrupted(signal: Int32)
    }

    func play() throws -> Outcome {
        let output = try SynthOutput(audio, instrument: instrument)
        let schedule = RenderSchedule(file: file, sampleRate: Double(output.driver.settings.sampleRate))
        let tempoMap = TempoMap(file: file)
        let duration = Double(schedule.endFrame.index) / schedule.sampleRate
        let status = SynthStatusLine.onTerminal(driver: output.driver)
        try output.start(schedule: schedule)
        while output.driver.isRunning {
            if let signal = SignalTrap.caught {
                try finish(output, status)
                return .interrupted(signal: signal)
            }
            status?.show(output.driver.counters, duration: duration, tempoMap: tempoMap)
            usleep(100_000)  // a signal cuts the sleep short
        }
        try finish(output, status)
        return .finished
    }

    /// Stops (fade, All Sound Off, drain) and closes the status line, even when the device failed.
    private func finish(_ output: SynthOutput, _ status: SynthStatusLine?) throws {
        defer { status?.finish() }
        try output.stop()
    }
}
