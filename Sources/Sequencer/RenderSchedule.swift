import MIDICore
import RenderCore
import Transport

/// A sequence laid out on the sample clock: every channel event of a MIDI file at its exact
/// frame (`round(seconds × rate)`), in playback order, plus the host timeline.
///
/// - Thread: any (an immutable value, built on control).
public struct RenderSchedule: Sendable {
    /// One event and the absolute frame where it takes effect.
    public struct Entry: Sendable, Equatable {
        public var frame: Int64
        public var event: RenderEvent

        public init(frame: Int64, event: RenderEvent) {
            self.frame = frame
            self.event = event
        }
    }

    public let sampleRate: Double
    public let tempoMap: TempoMap
    /// Sorted by frame; ties keep the file's merged order.
    public let entries: [Entry]
    /// Frame of the file's end (its longest track).
    public let endFrame: Int64

    /// - Thread: any.
    public init(file: MIDIFile, sampleRate: Double) {
        self.sampleRate = sampleRate
        tempoMap = TempoMap(file: file)
        var entries: [Entry] = []
        for merged in file.mergedEvents() {
            guard case .midi(let message) = merged.event.kind, let event = RenderEvent(message) else { continue }
            entries.append(Entry(frame: Self.frame(seconds: tempoMap.seconds(atTick: merged.event.tick), rate: sampleRate),
                                 event: event))
        }
        self.entries = entries
        endFrame = max(Self.frame(seconds: tempoMap.seconds(atTick: file.durationTicks), rate: sampleRate),
                       entries.last?.frame ?? 0)
    }

    /// A schedule of events already on the sample clock (tests, benchmarks, live capture).
    /// `entries` must be sorted by frame.
    /// - Thread: any.
    public init(entries: [Entry], sampleRate: Double, endFrame: Int64, tempoMap: TempoMap = TempoMap(file: MIDIFile())) {
        self.sampleRate = sampleRate
        self.tempoMap = tempoMap
        self.entries = entries
        self.endFrame = max(endFrame, entries.last?.frame ?? 0)
    }

    /// `round(seconds × rate)`: the frame where an event at `seconds` sounds.
    public static func frame(seconds: Double, rate: Double) -> Int64 {
        Int64((seconds * rate).rounded())
    }

    /// The host timeline at `frame` while playing.
    /// - Thread: any.
    public func hostSync(atFrame frame: Int64) -> HostSync {
        var host = tempoMap.hostSync(atTick: max(tempoMap.tick(atSeconds: Double(frame) / sampleRate), 0), transport: .playing)
        host.samplePosition = frame
        host.sampleRate = sampleRate
        return host
    }
}
