import ALSA
import RenderCore
import Synchronization

/// How an `AudioDriver` opens its device and runs.
///
/// - Thread: any (a plain value).
public struct AudioDriverOptions: Sendable {
    /// Rate, period (= the engine's block), buffer (= the output latency) and formats to ask for.
    public var pcm: PCMConfiguration
    /// ALSA configuration text used instead of the system's (tests: a private `pcm.x` definition).
    public var alsaConfiguration: String?
    /// Length of the fade that `stop()` plays before the device is drained.
    public var fadeOutSeconds: Double
    /// Live events the input ring holds between two blocks.
    public var liveEventCapacity: Int
    /// Events one block carries (sequenced plus live); more are dropped and counted.
    public var maxEventsPerBlock: Int
    /// Ask for `SCHED_FIFO` on the render thread (a warning when refused).
    public var realtimePriority: Bool
    /// Frames rendered after a sequence's end so releases and reverb ring out.
    public var tailSeconds: Double
    /// In JACK: the graph's own ports beside the main pair (inputs, other apps' sound, other outputs).
    public var jackPorts: JackAudioPorts?

    /// - Thread: any.
    public init(pcm: PCMConfiguration = PCMConfiguration(), alsaConfiguration: String? = nil,
                fadeOutSeconds: Double = 0.05, liveEventCapacity: Int = 4096, maxEventsPerBlock: Int = 8192,
                realtimePriority: Bool = true, tailSeconds: Double = 1.5, jackPorts: JackAudioPorts? = nil) {
        self.pcm = pcm
        self.alsaConfiguration = alsaConfiguration
        self.fadeOutSeconds = fadeOutSeconds
        self.liveEventCapacity = liveEventCapacity
        self.maxEventsPerBlock = maxEventsPerBlock
        self.realtimePriority = realtimePriority
        self.tailSeconds = tailSeconds
        self.jackPorts = jackPorts
    }
}

/// Reads the number of sounding voices an instrument publishes as an output value.
///
/// - Thread: any.
public struct VoiceMeter: Sendable {
    public let values: OutputValues
    public let output: Int

    /// - Parameters:
    ///   - values: the instrument's `outputValues`.
    ///   - output: the id of its voice-count output.
    public init(values: OutputValues, output: Int) {
        self.values = values
        self.output = output
    }

    /// - Thread: any.
    public var voices: Int { Int(values.load(output)) }
}

/// What a running (or finished) driver has done so far, for a status line.
///
/// - Thread: any (a plain value).
public struct AudioDriverCounters: Sendable, Equatable {
    /// Frames rendered and written to the device: the render clock.
    public var framesRendered: Int64
    /// Underruns the device recovered from.
    public var underruns: Int
    /// Events dropped: live ring full, or more events than a block carries.
    public var droppedEvents: Int
    /// Voices sounding in the instrument (0 without a `VoiceMeter`).
    public var activeVoices: Int
}

/// State shared between the control side and the render thread (atomics only).
///
/// - Thread: any.
final class DriverState: Sendable {
    let stopRequested = Atomic<Bool>(false)
    let running = Atomic<Bool>(false)
    let framesRendered = Atomic<Int64>(0)
    let droppedEvents = Atomic<Int>(0)
    /// The render thread could not keep up and left realtime priority (`OverrunWatchdog`).
    let realtimeDropped = Atomic<Bool>(false)
    /// Live playing's tempo (quarter notes per minute) as `Double.bitPattern`.
    let tempoBits = Atomic<UInt64>(Double(120).bitPattern)
}
