import MIDICore
import RenderCore
import Transport

/// A sequence laid out on the sample clock: every channel event of a MIDI file at its exact
/// frame (the frame nearest its time, `TempoMap.duration(at:)` through `TimeBase`, in
/// integers), in playback order, plus the host timeline.
///
/// - Thread: any (an immutable value, built on control).
public struct RenderSchedule: Sendable {
    /// One event and the absolute frame where it takes effect.
    public struct Entry: Sendable, Equatable {
        public var frame: FramePosition
        public var event: RenderEvent

        public init(frame: FramePosition, event: RenderEvent) {
            self.frame = frame
            self.event = event
        }
    }

    public let sampleRate: Double
    public let tempoMap: TempoMap
    /// Sorted by frame; ties keep the file's merged order.
    public let entries: [Entry]
    /// Frame of the file's end (its longest track).
    public let endFrame: FramePosition

    /// - Thread: any.
    public init(file: MIDIFile, sampleRate: Double) {
        self.sampleRate = sampleRate
        tempoMap = TempoMap(file: file)
        let laidOut = Self.messages(of: file, sampleRate: sampleRate)
        entries = laidOut.messages.compactMap { timed in RenderEvent(timed.message).map { Entry(frame: timed.frame, event: $0) } }
        endFrame = max(laidOut.endFrame, entries.last?.frame ?? 0)
    }

    /// Every MIDI message of `file` at its exact frame, in playback order, and the frame of
    /// the file's end: what `init(file:sampleRate:)` lays out, for a caller that routes the
    /// messages before they become render events (`render --patch`).
    /// - Thread: any.
    public static func messages(of file: MIDIFile, sampleRate: Double)
        -> (messages: [(frame: FramePosition, message: MIDIMessage)], endFrame: FramePosition) {
        let tempoMap = TempoMap(file: file), timeBase = timeBase(sampleRate)
        func frame(atTick tick: Tick) -> FramePosition { timeBase.nearestFrame(after: tempoMap.duration(at: tick)) }
        let messages = file.mergedEvents().compactMap { merged -> (frame: FramePosition, message: MIDIMessage)? in
            guard case .midi(let message) = merged.event.kind else { return nil }
            return (frame(atTick: merged.event.tick), message)
        }
        return (messages, frame(atTick: file.durationTicks))
    }

    /// A schedule of events already on the sample clock (tests, benchmarks, live capture).
    /// `entries` must be sorted by frame.
    /// - Thread: any.
    public init(entries: [Entry], sampleRate: Double, endFrame: FramePosition, tempoMap: TempoMap = TempoMap(file: MIDIFile())) {
        self.sampleRate = sampleRate
        self.tempoMap = tempoMap
        self.entries = entries
        self.endFrame = max(endFrame, entries.last?.frame ?? 0)
    }

    /// The sample clock at `sampleRate` (a whole number of frames a second).
    private static func timeBase(_ sampleRate: Double) -> TimeBase {
        TimeBase(sampleRate: max(1, Int(sampleRate.rounded())))
    }

    /// The host timeline at `frame` while playing.
    /// - Thread: any.
    public func hostSync(atFrame frame: FramePosition) -> HostSync {
        let time = Self.timeBase(sampleRate).duration(at: max(frame, .zero))
        var host = tempoMap.hostSync(atTick: tempoMap.tick(after: time), transport: .playing)
        host.samplePosition = frame.index
        host.sampleRate = sampleRate
        return host
    }
}
