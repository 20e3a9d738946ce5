import Foundation
import RenderCore

/// A generator that plays what an ALSA capture device records — a guitar, a microphone, a
/// line in, another program through a loopback — into the graph, where effects and mixer
/// strips take it like an instrument's sound.
///
/// An `AudioCapture` thread reads the device into a ring; the render thread only pops
/// from it. The input runs a constant distance behind the device: it starts once a block
/// and a period are buffered, drops what piles up beyond that (the two clocks drift), and
/// after running dry (the device stopped, or was unplugged) waits to be buffered again.
/// The delay from the device to the output is thus about one period plus one block on top
/// of the output's own.
///
/// - Thread: render for `process`; `init`, `prepare` on control.
public final class AudioInputNode: Node, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Decibels applied to the input.
        case gain = 0
    }

    /// - Thread: any (a plain value).
    public enum Output: Int, CaseIterable {
        /// The louder channel's peak over the last block, in dBFS (−120 for silence).
        case level = 0
        /// Times the input ran dry since the node started.
        case dropouts
    }

    public static let parameterInfos = [
        ParameterInfo(id: Parameter.gain.rawValue, name: "gain", range: -60...24, defaultValue: 0, unit: .decibels),
    ]

    public let descriptor = NodeDescriptor.audioInput
    public let parameters = AudioInputNode.parameterInfos
    public let outputs = AudioInputNode.outputInfos
    /// What an audio input publishes: its input level and the dropouts counted.
    public static let outputInfos = [
        OutputInfo(id: UInt32(Output.level.rawValue), name: "level", unit: .decibels),
        OutputInfo(id: UInt32(Output.dropouts.rawValue), name: "dropouts", unit: .count),
    ]
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// The capture device's ALSA name.
    public let device: String
    private let alsaConfiguration: String?
    private let report: @Sendable (String) -> Void
    private var capture: AudioCapture?
    private var gain = SmoothedValue(1)
    /// Whether enough is buffered to play; false at the start and after running dry.
    private var primed = false
    private var dropouts = 0

    /// - Parameters:
    ///   - device: the ALSA capture device (`hw:1,0`, `plughw:CARD=USB`, `default`).
    ///   - alsaConfiguration: ALSA configuration text to look the device up in instead of the system's.
    ///   - report: where the capture thread's one-line problems go (the daemon's log).
    /// - Thread: control.
    public init(device: String, alsaConfiguration: String? = nil, report: @escaping @Sendable (String) -> Void) {
        self.device = device
        self.alsaConfiguration = alsaConfiguration
        self.report = report
    }

    /// Starts capturing at the format's rate (stopping an earlier capture first).
    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) {
        capture?.stop()
        capture = AudioCapture(device: device, format: format, alsaConfiguration: alsaConfiguration, report: report)
        gain = SmoothedValue(1, rampFrames: max(1, Int(0.01 * format.sampleRate)))
        primed = false
        dropouts = 0
        preparedFormat = format
    }

    /// Adds what the capture ring holds to the bus at the `gain` parameter, once a block and
    /// a period are buffered, and publishes the level and the dropouts.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard let ring = capture?.ring, let format = preparedFormat else { return }
        let available = ring.count
        let slack = 2 * format.maxFrames
        if !primed {
            guard available >= slack else { return }
            primed = true
        }
        for _ in 0..<max(0, available - 2 * slack) { _ = ring.pop() }  // the device's clock ran ahead
        var peak: Float = 0
        var played = 0
        context.forEachSegment { event in
            guard event.kind == .parameter, event.parameter == Parameter.gain.rawValue, event.value.isFinite else { return }
            gain.set(pow(10, min(max(event.value, -60), 24) / 20))
        } render: { start, count in
            for i in start..<start + count {
                guard let frame = ring.pop() else { break }
                let g = gain.next()
                let left = frame.left * g, right = frame.right * g
                context.bus.left[i] += left
                context.bus.right[i] += right
                peak = max(peak, abs(left), abs(right))
                played += 1
            }
        }
        if played < context.frames {
            primed = false
            dropouts += 1
        }
        outputValues.store(peak > 0 ? 20 * log10(peak) : -120, at: Output.level.rawValue)
        outputValues.store(Float(dropouts), at: Output.dropouts.rawValue)
    }
}
