import MIDICore

/// What a receiver's stream has set, as far as the recovery journal can repair it: the
/// notes sounding, controller values, program and pitch wheel of each channel, and
/// whether the sequencer runs. Fixed size: 16 channels × 128 notes and controllers.
///
/// - Thread: any (a value).
struct ReceiverState: Sendable {
    private var sounding = [NoteSet](repeating: NoteSet(), count: 16)
    /// 16 × 128 values; `unknown` until a Control Change sets one.
    private var controllers = [UInt8](repeating: unknown, count: 16 * 128)
    private var programs = [UInt8?](repeating: nil, count: 16)
    private var pitchWheels = [UInt16?](repeating: nil, count: 16)
    private var running = false
    private var clocks: UInt32?

    private static let unknown: UInt8 = 0xFF

    func soundingNotes(channel: UInt8) -> NoteSet { sounding[Int(channel & 0x0F)] }

    mutating func apply(_ message: MIDIMessage) {
        switch message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            sounding[Int(channel & 0x0F)].insert(note & 0x7F)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            sounding[Int(channel & 0x0F)].remove(note & 0x7F)
        case .controlChange(let channel, 120, _), .controlChange(let channel, 123...127, _):
            sounding[Int(channel & 0x0F)] = NoteSet()
        case .controlChange(let channel, 121, _):
            pitchWheels[Int(channel & 0x0F)] = 8192
        case .controlChange(let channel, let controller, let value):
            controllers[Int(channel & 0x0F) * 128 + Int(controller & 0x7F)] = value & 0x7F
        case .programChange(let channel, let program):
            programs[Int(channel & 0x0F)] = program & 0x7F
        case .pitchBend(let channel, let value):
            pitchWheels[Int(channel & 0x0F)] = value & 0x3FFF
        case .start: running = true; clocks = 0
        case .continue: running = true
        case .stop: running = false
        case .songPosition(let position): clocks = UInt32(position & 0x3FFF) * 6
        case .clock where running: clocks = clocks.map { ($0 + 1) & ChapterQ.maximumClocks }
        default: break
        }
    }

    /// The messages that bring this state to the sender's as `journal` has it, applied
    /// to this state: per channel the NoteOffs of notes that ended, controller values,
    /// bank and program, pitch wheel, then the NoteOns of notes still sounding, in the
    /// journal's order (midihub's sender lists them in the order they were played); then the
    /// sequencer's Stop, or Song Position and Continue. Controllers 120…127 and logs of
    /// the toggle and count tools are not replayed.
    mutating func repair(from journal: RecoveryJournal) -> [MIDIMessage] {
        var repairs: [MIDIMessage] = []
        for channelJournal in journal.channels {
            repairs += channelRepairs(channelJournal)
        }
        if let sequencer = journal.system?.sequencer { repairs += sequencerRepairs(sequencer) }
        for message in repairs { apply(message) }
        return repairs
    }

    private func channelRepairs(_ journal: ChannelJournal) -> [MIDIMessage] {
        let channel = journal.channel & 0x0F
        var repairs: [MIDIMessage] = []
        let sounding = sounding[Int(channel)]
        for note in journal.notes?.offNotes.notes ?? [] where sounding.contains(note) {
            repairs.append(.noteOff(channel: channel, note: note, velocity: 0))
        }
        var controllers = Array(controllers[Int(channel) * 128..<Int(channel + 1) * 128])
        for log in journal.controllers?.logs ?? [] where !log.alternate && log.controller < 120 {
            guard controllers[Int(log.controller)] != log.value else { continue }
            repairs.append(.controlChange(channel: channel, controller: log.controller, value: log.value))
            controllers[Int(log.controller)] = log.value
        }
        if let chapter = journal.program {
            let bankSelects: [MIDIMessage] = chapter.bank.map { bank in
                [(UInt8(0), bank.msb), (32, bank.lsb)].filter { controllers[Int($0.0)] != $0.1 }
                    .map { .controlChange(channel: channel, controller: $0.0, value: $0.1) }
            } ?? []
            repairs += bankSelects
            if !bankSelects.isEmpty || programs[Int(channel)] != chapter.program {
                repairs.append(.programChange(channel: channel, program: chapter.program))
            }
        }
        if let wheel = journal.pitchWheel, pitchWheels[Int(channel)] != wheel.value {
            repairs.append(.pitchBend(channel: channel, value: wheel.value))
        }
        for log in journal.notes?.noteLogs ?? [] where log.playable && log.velocity > 0 && !sounding.contains(log.note) {
            repairs.append(.noteOn(channel: channel, note: log.note, velocity: log.velocity))
        }
        return repairs
    }

    private func sequencerRepairs(_ chapter: ChapterQ) -> [MIDIMessage] {
        switch (chapter.running, running) {
        case (false, true): return [.stop]
        case (true, true): return []
        case (let senderRuns, false):
            var repairs: [MIDIMessage] = []
            if let senderClocks = chapter.clocks, senderClocks != clocks, senderClocks % 6 == 0 {
                repairs.append(.songPosition(UInt16(min(senderClocks / 6, 0x3FFF))))
            }
            if senderRuns { repairs.append(.continue) }
            return repairs
        }
    }
}
