/// Writes a `MIDIFile` in the text sequence format so that parsing the text gives
/// the same `MIDIFile` back (see docs/sequence-format.md for what cannot be written).
///
/// Layout: the header (`ppq`/`smpte`, `format` when not 1); a first track without
/// channel messages becomes the top-level conductor section (`tempo 120`,
/// `time 3/4 at 17:1`); every other track is a `track` block with one event per
/// line, Note On/release pairs joined into note lines (`C4 1/4`) and notes that
/// start together with the same length, velocity and release joined into chords.
///
/// - Thread: any.
struct SequenceTextRenderer {
    let file: MIDIFile
    /// nil when positions must be written as `@tick` (SMPTE, or a signature whose beat is not whole ticks).
    let bars: SequenceTextBars?
    var output = ""
    var defaults = SequenceTextDefaults()

    init(file: MIDIFile) {
        self.file = file
        var bars: SequenceTextBars
        if case .ticksPerQuarter(let ticks) = file.division {
            bars = SequenceTextBars(ticksPerQuarter: Int(ticks))
        } else {
            bars = SequenceTextBars(ticksPerQuarter: nil)
        }
        var segmentsBefore: [EventAddress: Int] = [:]
        for signature in Self.timeSignatures(in: file) {
            segmentsBefore[signature.address] = bars.segments.count
            bars.append(tick: signature.tick, numerator: signature.numerator, denominatorPower: signature.power)
        }
        self.bars = bars.isCountable ? bars : nil
        self.segmentsBefore = segmentsBefore
    }

    /// Where an event sits in the file: track index and index in the track's events.
    struct EventAddress: Hashable {
        var track: Int
        var index: Int
    }

    /// For each time signature, how many bar-map segments precede it (its position is written in those).
    private let segmentsBefore: [EventAddress: Int]

    /// All time signatures, ordered by tick, then track, then position in the track.
    private static func timeSignatures(in file: MIDIFile) -> [(address: EventAddress, tick: Tick, numerator: UInt8, power: UInt8)] {
        var found: [(address: EventAddress, tick: Tick, numerator: UInt8, power: UInt8)] = []
        for (trackIndex, track) in file.tracks.enumerated() {
            for (index, event) in track.events.enumerated() {
                if case .meta(.timeSignature(let numerator, let power, _, _)) = event.kind {
                    found.append((EventAddress(track: trackIndex, index: index), event.tick, numerator, power))
                }
            }
        }
        return found.enumerated().sorted { ($0.element.tick, $0.offset) < ($1.element.tick, $1.offset) }.map(\.element)
    }

    mutating func render() -> String {
        output = "# midihub sequence (format: docs/sequence-format.md)\n"
        switch file.division {
        case .ticksPerQuarter(let ticks): output += "ppq \(ticks)\n"
        case .smpte(let framesPerSecond, let ticksPerFrame): output += "smpte \(framesPerSecond) \(ticksPerFrame)\n"
        }
        if file.format != 1 { output += "format \(file.format)\n" }
        var tracks = file.tracks[...]
        if let first = tracks.first, Self.isConductor(first) {
            output += "\n"
            renderConductor(first)
            tracks = tracks.dropFirst()
        }
        for (index, track) in zip(tracks.indices, tracks) {
            output += "\n"
            renderTrack(track, index: index)
        }
        return output
    }

    /// A first track that has events but no channel messages is written top-level.
    private static func isConductor(_ track: MIDITrack) -> Bool {
        !track.events.isEmpty && !track.events.contains { if case .midi = $0.kind { true } else { false } }
    }

    private mutating func renderConductor(_ track: MIDITrack) {
        for (index, event) in track.events.enumerated() {
            var line = describe(event.kind, channel: 0, conductor: true)
            if case .meta = event.kind, event.tick == 0 {} else {
                line += " at " + position(event.tick, of: EventAddress(track: 0, index: index))
            }
            output += line + "\n"
        }
        if track.endTick != track.events.last?.tick ?? 0 {
            output += "end at \(position(track.endTick))\n"
        }
    }

    private mutating func renderTrack(_ track: MIDITrack, index trackIndex: Int) {
        var events = track.events[...]
        var header = "track"
        if let first = events.first, first.tick == 0, case .meta(.trackName(let name)) = first.kind {
            header += " \(Self.quoted(name))"
            events = events.dropFirst()
        }
        let channel = Self.mainChannel(of: track)
        if let channel {
            header += " channel \(channel + 1)"
            if let first = events.first, first.tick == 0, case .midi(.programChange(channel, let program)) = first.kind {
                header += " program \(Int(program) + 1)"
                events = events.dropFirst()
            }
        }
        output += header + "\n"
        let remaining = Array(events)
        let pairing = SequenceTextNotePairing(events: remaining)
        renderDefaults(for: remaining, pairing: pairing)
        let first = EventAddress(track: trackIndex, index: track.events.count - remaining.count)
        renderLines(remaining, from: first, pairing: pairing, channel: channel ?? 0)
        if track.endTick != track.events.last?.tick ?? 0 {
            output += "  " + padded(position(track.endTick)) + " end\n"
        }
    }

    /// The channel most of the track's channel messages use (the lowest on a tie).
    private static func mainChannel(of track: MIDITrack) -> UInt8? {
        var counts = [Int](repeating: 0, count: 256)
        for event in track.events {
            if case .midi(let message) = event.kind, let channel = message.channel { counts[Int(channel)] += 1 }
        }
        guard let best = counts.max(), best > 0 else { return nil }
        return UInt8(counts.firstIndex(of: best)!)
    }

    /// A position word: `bar:beat`, `bar:beat.fraction` (up to 3 decimals), `bar:beat:tick` or `@tick`.
    /// `address` names the event, so a time signature's position is written in the bars before it.
    func position(_ tick: Tick, of address: EventAddress? = nil) -> String {
        let limit = address.flatMap { segmentsBefore[$0] }
        guard let bars, let place = bars.position(of: tick, segmentLimit: limit),
              let perBeat = bars.ticksPerBeat(at: tick, segmentLimit: limit) else { return "@\(tick)" }
        let barBeat = "\(place.bar):\(place.beat)"
        if place.tick == 0 { return barBeat }
        if (place.tick * 1000) % perBeat == 0 {
            var digits = String(place.tick * 1000 / perBeat)
            digits = String(repeating: "0", count: 3 - digits.count) + digits
            while digits.hasSuffix("0") { digits.removeLast() }
            return barBeat + "." + digits
        }
        return barBeat + ":\(place.tick)"
    }

    /// Positions padded so events line up.
    func padded(_ position: String) -> String {
        position.count >= 8 ? position : position + String(repeating: " ", count: 8 - position.count)
    }
}
