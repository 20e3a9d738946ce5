/// Turns parsed statements into tracks: places the time signatures to build the
/// bar map, resolves every position and length to ticks, and orders the events.
///
/// Order inside a track (the renderer relies on it to stay lossless): events are
/// sorted by tick; at one tick, the releases of notes that started earlier come
/// first, in the order their notes were written; then every other event in the
/// order it was written. A note of length 0 releases right after its own Note On.
///
/// - Thread: any.
struct SequenceTextAssembler {
    /// Sort key of one event: tick, then releases (0) before written events (1), then writing order.
    private struct Key: Comparable {
        var tick: Tick
        var phase: Int
        var statement: Int
        var sub: Int
        static func < (a: Key, b: Key) -> Bool {
            (a.tick, a.phase, a.statement, a.sub) < (b.tick, b.phase, b.statement, b.sub)
        }
    }

    private let drafts: [SequenceTextTrackDraft]
    private var bars: SequenceTextBars
    /// Ticks of the time signatures, by line: each was placed with the bars before it.
    private var signatureTicks: [Int: Tick] = [:]

    init(drafts: [SequenceTextTrackDraft], division: MIDIFile.Division) throws(SequenceTextError) {
        self.drafts = drafts
        if case .ticksPerQuarter(let ticks) = division {
            bars = SequenceTextBars(ticksPerQuarter: Int(ticks))
        } else {
            bars = SequenceTextBars(ticksPerQuarter: nil)
        }
        try placeTimeSignatures()
    }

    /// Adds the time signatures to the bar map in time order. A signature given in
    /// bars depends on the ones before it, so the earliest unplaced one is placed
    /// first; that is always exact because bar:beat order is time order.
    private mutating func placeTimeSignatures() throws(SequenceTextError) {
        var pending: [(statement: SequenceTextStatement, numerator: UInt8, power: UInt8)] = []
        for draft in drafts {
            for statement in draft.statements {
                if case .single(.meta(.timeSignature(let numerator, let power, _, _))) = statement.event {
                    pending.append((statement, numerator, power))
                }
            }
        }
        while !pending.isEmpty {
            // A later signature may not resolve yet (its beat can exceed the current
            // meter); only when none resolves is the first one's error the real one.
            var best: (index: Int, tick: Tick)?
            for (index, item) in pending.enumerated() {
                guard let tick = try? self.tick(of: item.statement) else { continue }
                if best == nil || tick < best!.tick { best = (index, tick) }
            }
            guard let best else {
                _ = try tick(of: pending[0].statement)
                return
            }
            let placed = pending.remove(at: best.index)
            signatureTicks[placed.statement.line] = best.tick
            bars.append(tick: best.tick, numerator: placed.numerator, denominatorPower: placed.power)
        }
    }

    func tracks() throws(SequenceTextError) -> [MIDITrack] {
        var statementNumber = 0
        var tracks: [MIDITrack] = []
        for draft in drafts {
            var keyed: [(key: Key, event: TrackEvent)] = []
            var end: (tick: Tick, statement: SequenceTextStatement)?
            for statement in draft.statements {
                statementNumber += 1
                let tick: Tick
                if let placed = signatureTicks[statement.line] { tick = placed } else { tick = try self.tick(of: statement) }
                switch statement.event {
                case .single(let kind):
                    keyed.append((Key(tick: tick, phase: 1, statement: statementNumber, sub: 0), TrackEvent(tick: tick, kind)))
                case .end:
                    if let end {
                        throw error(at: statement, column: statement.column, "the track already ends at line \(end.statement.line)",
                                    fix: "keep one 'end' per track")
                    }
                    end = (tick, statement)
                case .notes(let notes, let channel, let length, let velocity, let release):
                    let ticks = try self.ticks(of: length, at: tick, statement: statement)
                    guard let off = tick.adding(ticks) else { throw error(at: statement, column: statement.column, "the note ends past the last tick", fix: "shorten it") }
                    for (index, note) in notes.enumerated() {
                        let onKey = Key(tick: tick, phase: 1, statement: statementNumber, sub: 2 * index)
                        let offKey = ticks == 0 ? Key(tick: tick, phase: 1, statement: statementNumber, sub: 2 * index + 1)
                                                : Key(tick: off, phase: 0, statement: statementNumber, sub: index)
                        keyed.append((onKey, TrackEvent(tick: tick, .midi(.noteOn(channel: channel, note: note, velocity: velocity)))))
                        keyed.append((offKey, TrackEvent(tick: off, .midi(Self.releaseMessage(release, channel: channel, note: note)))))
                    }
                }
            }
            keyed.sort { $0.key < $1.key }
            let events = keyed.map(\.event)
            let lastTick = events.last?.tick ?? 0
            if let end, end.tick < lastTick {
                throw error(at: end.statement, column: end.statement.positionColumn, "the track ends at tick \(end.tick), before its last event at tick \(lastTick)",
                            fix: "move 'end' after the last note's release, or remove it")
            }
            tracks.append(MIDITrack(events: events, endTick: end?.tick ?? lastTick))
        }
        return tracks
    }

    static func releaseMessage(_ release: SequenceTextRelease, channel: UInt8, note: UInt8) -> MIDIMessage {
        switch release {
        case .noteOff(let velocity): return .noteOff(channel: channel, note: note, velocity: velocity)
        case .noteOnZero: return .noteOn(channel: channel, note: note, velocity: 0)
        }
    }

    private func error(at statement: SequenceTextStatement, column: Int, _ reason: String, fix: String) -> SequenceTextError {
        SequenceTextError(line: statement.line, column: column, reason: reason, fix: fix)
    }

    /// The tick of a statement's position (0 when it has none).
    private func tick(of statement: SequenceTextStatement) throws(SequenceTextError) -> Tick {
        switch statement.position {
        case nil: return 0
        case .tick(let tick): return tick
        case .barBeat(let bar, let beat, let fraction, let scale, let extra):
            return try tick(bar: bar, beat: beat, fraction: fraction, scale: scale, extra: extra, statement: statement)
        }
    }

    private func tick(bar number: Int, beat: Int, fraction: Int, scale: Int, extra: Int,
                      statement: SequenceTextStatement) throws(SequenceTextError) -> Tick {
        let fix = "use @tick positions here"
        switch bars.bar(number) {
        case .uncountable:
            throw error(at: statement, column: statement.positionColumn, "bar \(number) cannot be counted: the division is SMPTE or a time signature before it has no whole-tick beat", fix: fix)
        case .tooFar:
            throw error(at: statement, column: statement.positionColumn, "bar \(number) is too far", fix: "use a smaller bar number")
        case .bar(let bar):
            guard beat <= bar.numerator else {
                throw error(at: statement, column: statement.positionColumn, "beat \(beat) is past the end of a bar of \(bar.numerator) beats",
                            fix: "use beats 1-\(bar.numerator), or bar \(number + 1)")
            }
            guard extra < bar.ticksPerBeat else {
                throw error(at: statement, column: statement.positionColumn, "tick \(extra) is past the end of the beat (\(bar.ticksPerBeat) ticks)",
                            fix: "use ticks 0-\(bar.ticksPerBeat - 1), or a later beat")
            }
            let fractionTicks = fraction * bar.ticksPerBeat
            guard fractionTicks % scale == 0 else {
                throw error(at: statement, column: statement.positionColumn, "position falls between ticks (a beat has \(bar.ticksPerBeat))",
                            fix: "use bar:beat:tick, e.g. \(number):\(beat):\(fractionTicks / scale)")
            }
            let offset = (beat - 1) * bar.ticksPerBeat + fractionTicks / scale + extra
            guard offset < bar.length else {
                throw error(at: statement, column: statement.positionColumn, "position is past the end of bar \(number), which a time signature cuts short after \(bar.length) ticks",
                            fix: "move it into the next bar")
            }
            guard let tick = bar.start.adding(Tick(UInt64(offset))) else {
                throw error(at: statement, column: statement.positionColumn, "bar \(number) is too far", fix: "use a smaller bar number")
            }
            return tick
        }
    }

    private func ticks(of length: SequenceTextLength, at tick: Tick, statement: SequenceTextStatement) throws(SequenceTextError) -> Tick {
        let whole = bars.ticksPerQuarter.map { UInt64($0) * 4 } ?? 0
        switch length {
        case .ticks(let ticks):
            return ticks
        case .wholeNotes(let numerator, let denominator):
            let scaled = whole * UInt64(numerator)
            guard scaled % UInt64(denominator) == 0 else {
                throw error(at: statement, column: statement.column, "length \(numerator)/\(denominator) of a whole note is not a whole number of ticks",
                            fix: "give the length in ticks, e.g. \(scaled / UInt64(denominator))t")
            }
            return Tick(scaled / UInt64(denominator))
        case .beats(let units, let fraction, let scale):
            guard let perBeat = bars.ticksPerBeat(at: tick) else {
                throw error(at: statement, column: statement.column, "beats are not a whole number of ticks here", fix: "give the length in ticks, e.g. 240t")
            }
            let fractionTicks = fraction * perBeat
            guard fractionTicks % scale == 0 else {
                throw error(at: statement, column: statement.column, "the length in beats falls between ticks",
                            fix: "give the length in ticks, e.g. \(units * perBeat + fractionTicks / scale)t")
            }
            return Tick(UInt64(units * perBeat + fractionTicks / scale))
        }
    }
}
