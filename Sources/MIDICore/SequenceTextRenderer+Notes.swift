/// Note lines, chords and the `default` line of a track.
extension SequenceTextRenderer {
    /// One note line to write: Note On indices (a chord when more than one), shared length and release.
    private struct NoteLine {
        var starts: [Int]
        var channel: UInt8
        var velocity: UInt8
        var length: Tick
        var release: SequenceTextRelease

        /// True when this note can join `line` as a chord note.
        func joins(_ line: NoteLine) -> Bool {
            channel == line.channel && velocity == line.velocity && length == line.length && release == line.release
        }
    }

    /// Writes `default vel N rel R` when the track's most common values differ from the current defaults.
    mutating func renderDefaults(for events: [TrackEvent], pairing: SequenceTextNotePairing) {
        var velocities: [UInt8: Int] = [:]
        var releases: [SequenceTextRelease: Int] = [:]
        for (start, release) in pairing.releaseOf {
            if let line = noteLine(events, start: start, release: release) {
                velocities[line.velocity, default: 0] += 1
                releases[line.release, default: 0] += 1
            }
        }
        var words: [String] = []
        if let velocity = Self.mostCommon(velocities), velocity != defaults.velocity {
            defaults.velocity = velocity
            words.append("vel \(velocity)")
        }
        if let release = Self.mostCommon(releases), release != defaults.release {
            defaults.release = release
            words.append("rel " + Self.releaseWord(release))
        }
        if !words.isEmpty { output += "default " + words.joined(separator: " ") + "\n" }
    }

    /// The most frequent key; ties go to the smallest, so output does not depend on hashing.
    private static func mostCommon<Key: Hashable>(_ counts: [Key: Int]) -> Key? where Key: Comparable {
        counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }

    static func releaseWord(_ release: SequenceTextRelease) -> String {
        switch release {
        case .noteOff(let velocity): return String(velocity)
        case .noteOnZero: return "on"
        }
    }

    /// Writes the track's event lines; `first` is the address of `events[0]` in the file.
    mutating func renderLines(_ events: [TrackEvent], from first: EventAddress, pairing: SequenceTextNotePairing, channel: UInt8) {
        var index = 0
        while index < events.count {
            defer { index += 1 }
            if pairing.pairedReleases.contains(index) { continue }
            let event = events[index]
            guard let release = pairing.releaseOf[index], var line = noteLine(events, start: index, release: release) else {
                let address = EventAddress(track: first.track, index: first.index + index)
                output += "  " + padded(position(event.tick, of: address)) + " " + describe(event.kind, channel: channel, conductor: false) + "\n"
                continue
            }
            while line.length > 0, let following = chordNote(events, pairing: pairing, at: index + 1), following.joins(line),
                  events[index + 1].tick == event.tick {
                line.starts.append(index + 1)
                index += 1
            }
            output += "  " + padded(position(event.tick)) + " " + describe(line, events: events, trackChannel: channel) + "\n"
        }
    }

    /// The note starting at `index` when it is paired.
    private func chordNote(_ events: [TrackEvent], pairing: SequenceTextNotePairing, at index: Int) -> NoteLine? {
        guard let release = pairing.releaseOf[index] else { return nil }
        return noteLine(events, start: index, release: release)
    }

    private func noteLine(_ events: [TrackEvent], start: Int, release: Int) -> NoteLine? {
        guard case .midi(.noteOn(let channel, _, let velocity)) = events[start].kind else { return nil }
        let releaseKind: SequenceTextRelease
        switch events[release].kind {
        case .midi(.noteOff(_, _, let velocity)): releaseKind = .noteOff(velocity: velocity)
        case .midi(.noteOn): releaseKind = .noteOnZero
        default: return nil
        }
        return NoteLine(starts: [start], channel: channel, velocity: velocity,
                        length: events[release].tick - events[start].tick, release: releaseKind)
    }

    private func describe(_ line: NoteLine, events: [TrackEvent], trackChannel: UInt8) -> String {
        var names: [String] = []
        for start in line.starts {
            if case .midi(.noteOn(_, let note, _)) = events[start].kind { names.append(noteWord(note, channel: line.channel)) }
        }
        var words: [String] = [names.joined(separator: "+"), lengthWord(line.length)]
        if line.velocity != defaults.velocity { words.append("vel \(line.velocity)") }
        if line.release != defaults.release { words.append("rel " + Self.releaseWord(line.release)) }
        if line.channel != trackChannel { words.append("ch \(line.channel + 1)") }
        return words.joined(separator: " ")
    }

    /// A note's name: GM drum name on channel 10, else C4-style (a number when outside 0…127).
    func noteWord(_ note: UInt8, channel: UInt8) -> String {
        if channel == 9, let drum = GMDrumName.name(note) { return drum }
        return note <= 127 ? NoteName.name(note) : String(note)
    }

    /// A length word: a fraction of a whole note when it is a simple one, else ticks.
    func lengthWord(_ length: Tick) -> String {
        let ticks = length.whole
        guard case .ticksPerQuarter(let perQuarter) = file.division, perQuarter > 0, ticks > 0 else { return "\(ticks)t" }
        let whole = UInt64(perQuarter) * 4
        var (a, b) = (ticks, whole)
        while b != 0 { (a, b) = (b, a % b) }
        let (numerator, denominator) = (ticks / a, whole / a)
        return numerator <= 64 && denominator <= 64 ? "\(numerator)/\(denominator)" : "\(ticks)t"
    }
}
