import AudioHost
import Foundation
import MIDICore

/// The line `play` and `synth` redraw on a terminal while the instrument plays:
/// `0:03.2 / 0:10.0  bar 2:3  voices 4  underruns 0` (position, duration and bar:beat
/// only for a sequence). The position is what is audible: frames rendered minus the
/// device buffer.
///
/// - Thread: the main thread.
final class SynthStatusLine {
    private let timeBase: TimeBase
    private let bufferFrames: Int
    private var lastShown = ""

    /// A status line on stderr, or `nil` when stderr is not a terminal.
    static func onTerminal(driver: AudioDriver) -> SynthStatusLine? {
        isatty(STDERR_FILENO) != 0 ? SynthStatusLine(driver: driver) : nil
    }

    private init(driver: AudioDriver) {
        timeBase = TimeBase(sampleRate: driver.settings.sampleRate)
        bufferFrames = driver.settings.bufferFrames
    }

    /// Redraws the line for a sequence of `duration` seconds with `tempoMap`, or for live
    /// playing when both are nil.
    func show(_ counters: AudioDriverCounters, duration: Double? = nil, tempoMap: TempoMap? = nil) {
        var parts: [String] = []
        if let duration, let tempoMap {
            let played = min(timeBase.duration(ofFrames: max(counters.framesRendered - Int64(bufferFrames), 0)),
                             HostDuration(seconds: duration))
            let seconds = played.seconds
            let position = tempoMap.barBeat(atTick: tempoMap.tick(after: played))
            parts.append("\(StatusLine.clock(seconds)) / \(StatusLine.clock(duration))")
            parts.append("bar \(position.bar):\(position.beat)")
        }
        parts.append("voices \(counters.activeVoices)")
        parts.append("underruns \(counters.underruns)")
        if counters.droppedEvents > 0 { parts.append("dropped \(counters.droppedEvents)") }
        let line = parts.joined(separator: "  ")
        guard line != lastShown else { return }
        lastShown = line
        FileHandle.standardError.write(Data(("\r" + line + "\u{1B}[K").utf8))
    }

    func finish() {
        guard !lastShown.isEmpty else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        lastShown = ""
    }
}
