/// Finds which Note On / release pairs of a track the text format can write as one
/// note line without changing the event order the parser rebuilds.
///
/// Releases are matched first in, first out per channel and key. A pair is kept
/// when the parser's order rule (see `SequenceTextAssembler`) puts its release
/// exactly where it is: at its tick, releases of notes that started earlier must
/// come before every other event, in the order their notes started; a note of
/// length 0 must release right after its Note On. Any other pair is written as
/// separate `on` and `off` lines, so the round trip stays lossless.
///
/// - Thread: any.
struct SequenceTextNotePairing {
    /// Index of each paired Note On's release, by Note On index.
    private(set) var releaseOf: [Int: Int] = [:]
    /// Indices of the releases that belong to a paired note.
    private(set) var pairedReleases: Set<Int> = []

    init(events: [TrackEvent]) {
        var startOf: [Int: Int] = [:]
        var open: [Int: [Int]] = [:]
        for (index, event) in events.enumerated() {
            guard case .midi(let message) = event.kind else { continue }
            switch message {
            case .noteOn(let channel, let note, let velocity) where velocity > 0:
                open[Self.key(channel, note), default: []].append(index)
            case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
                let key = Self.key(channel, note)
                if let start = open[key]?.first {
                    open[key]!.removeFirst()
                    startOf[index] = start
                }
            default:
                break
            }
        }
        keepPairsInParserOrder(events: events, startOf: startOf)
    }

    private static func key(_ channel: UInt8, _ note: UInt8) -> Int { Int(channel) << 8 | Int(note) }

    private mutating func keepPairsInParserOrder(events: [TrackEvent], startOf: [Int: Int]) {
        var groupStart = 0
        while groupStart < events.count {
            let tick = events[groupStart].tick
            var inReleasePrefix = true
            var lastStart = -1
            var index = groupStart
            while index < events.count, events[index].tick == tick {
                defer { index += 1 }
                guard let start = startOf[index] else {
                    inReleasePrefix = false
                    continue
                }
                if events[start].tick < tick {
                    if inReleasePrefix, start > lastStart {
                        lastStart = start
                        pair(start, index)
                    } else {
                        inReleasePrefix = false
                    }
                } else {
                    inReleasePrefix = false
                    if start == index - 1 { pair(start, index) }
                }
            }
            groupStart = index
        }
    }

    private mutating func pair(_ start: Int, _ release: Int) {
        releaseOf[start] = release
        pairedReleases.insert(release)
    }
}
