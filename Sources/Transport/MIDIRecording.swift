import MIDICore

/// What `midihub record` keeps: the messages that arrived from its sources, each with its
/// arrival time, laid out as a Standard MIDI File the way `arecordmidi` lays it out — a
/// format 1 file at a fixed tempo (`-b`) and resolution (`-t`), a conductor track with the
/// tempo and a 4/4 time signature, then one track per source (or, split by channel, one per
/// source and channel that sent anything). Time runs from the start of the recording.
///
/// Channel messages and SysEx are kept; clock, active sensing and the other system
/// messages are not (a file's tempo and position are its own).
///
/// - Thread: any (a plain value).
public struct MIDIRecording: Sendable {
    public struct Options: Hashable, Sendable {
        /// Quarter notes per minute the ticks count at.
        public var beatsPerMinute: Double
        /// Ticks per quarter note.
        public var ticksPerQuarter: Int
        /// One track per channel of each source, instead of one per source.
        public var splitChannels: Bool

        public init(beatsPerMinute: Double = 120, ticksPerQuarter: Int = 384, splitChannels: Bool = false) {
            self.beatsPerMinute = beatsPerMinute
            self.ticksPerQuarter = ticksPerQuarter
            self.splitChannels = splitChannels
        }
    }

    private struct Recorded: Sendable {
        var tick: Tick
        var kind: TrackEvent.Kind
        var source: Int
        var channel: UInt8?
    }

    public let options: Options
    /// The sources' names, for the track names.
    public private(set) var sources: [String]
    private var recorded: [Recorded] = []
    private var lastTick = Tick.zero

    public init(options: Options, sources: [String]) {
        self.options = options
        self.sources = sources
    }

    /// Adds a source (named for its track) and returns its index.
    public mutating func addSource(_ name: String) -> Int {
        sources.append(name)
        return sources.count - 1
    }

    /// Messages kept so far.
    public var count: Int { recorded.count }

    /// Keeps `message`, which arrived from `sources[source]` `elapsed` after the start;
    /// drops what a file does not keep.
    public mutating func record(_ message: MIDIMessage, after elapsed: HostDuration, source: Int) {
        let kind: TrackEvent.Kind
        switch message {
        case .sysEx(let payload):
            kind = .sysEx(payload + [0xF7])  // a file's SysEx event: the bytes after F0, F7 last
        case _ where message.channel != nil:
            kind = .midi(message)
        default:
            return
        }
        // Arrival stamps never go back here: a stamp a hair behind the last one keeps its tick.
        let tick = max(ticks(after: elapsed), lastTick)
        lastTick = tick
        recorded.append(Recorded(tick: tick, kind: kind, source: source, channel: message.channel))
    }

    /// The tick `elapsed` after the start (the nearest), at the tempo the file says.
    private func ticks(after elapsed: HostDuration) -> Tick {
        TickRate(microsecondsPerQuarter: microsecondsPerQuarter, ticksPerQuarter: options.ticksPerQuarter).span(of: elapsed).rounded
    }

    /// The recording's tempo as its file writes it.
    private var microsecondsPerQuarter: UInt32 {
        UInt32(min(max((60_000_000 / options.beatsPerMinute).rounded(), 1), Double(0xFF_FFFF)))
    }

    /// The recording as a file; it ends `length` after the start (or at its last event).
    public func file(endingAfter length: HostDuration) -> MIDIFile {
        let end = max(ticks(after: length), lastTick)
        let conductor = MIDITrack(events: [
            TrackEvent(tick: 0, .meta(.tempo(microsecondsPerQuarter: microsecondsPerQuarter))),
            TrackEvent(tick: 0, .meta(.timeSignature(numerator: 4, denominatorPower: 2, clocksPerClick: 24,
                                                     thirtySecondsPerQuarter: 8))),
        ], endTick: end)
        var tracks = [conductor]
        for (source, name) in sources.enumerated() {
            let events = recorded.filter { $0.source == source }
            let groups: [(String, [Recorded])] = options.splitChannels
                ? (0..<16).map { channel in ("\(name) channel \(channel + 1)", events.filter { $0.channel == UInt8(channel) }) }
                    + [("\(name) system", events.filter { $0.channel == nil })]
                : [(name, events)]
            for (title, group) in groups where !options.splitChannels || !group.isEmpty {
                tracks.append(MIDITrack(events: [TrackEvent(tick: 0, .meta(.trackName(title)))] + group.map { TrackEvent(tick: $0.tick, $0.kind) },
                                        endTick: end))
            }
        }
        return MIDIFile(format: 1, division: .ticksPerQuarter(UInt16(clamping: options.ticksPerQuarter)), tracks: tracks)
    }
}
