import MIDICore

/// What one channel sent since the checkpoint, each entry stamped with the sequence
/// number of the packet that carried it; plus the state a later command needs (the
/// notes sounding, the bank selected). Fixed size: 128 notes and 128 controllers.
///
/// - Thread: any (a value).
struct ChannelHistory: Sendable {
    /// Per note: its latest NoteOn velocity (0 for a NoteOff) and packet.
    private var notes = [Stamped<UInt8>?](repeating: nil, count: 128)
    /// Per note: the count of NoteOns the channel had sent before its latest, so the
    /// journal lists its note logs in the order they were played (a receiver replays them
    /// in that order: a lost arpeggio or strummed chord comes back as it was sent).
    private var noteOnOrder = [UInt32](repeating: 0, count: 128)
    private var noteOnsSent: UInt32 = 0
    /// Per controller: its latest value and packet.
    private var controllers = [Stamped<UInt8>?](repeating: nil, count: 128)
    /// Which notes and controllers have an entry: the journal visits only these.
    private var loggedNotes = NoteSet()
    private var loggedControllers = NoteSet()
    private var program: Stamped<ChapterP>?
    private var pitchWheel: Stamped<UInt16>?
    /// State, not history: what the sender's own stream has sounding and selected.
    private var sounding = NoteSet()
    private var bankMSB: UInt8?
    private var bankLSB: UInt8?
    /// The packet of the latest `record`, nil before the first.
    private var lastRecorded: UInt16?
    /// The journal's bytes as last encoded; nil once a record or restamp changed what it says.
    private var encoded: EncodedChannelJournal?

    mutating func record(_ message: MIDIMessage, sequenceNumber: UInt16) {
        lastRecorded = sequenceNumber
        encoded = nil
        switch message {
        case .noteOn(_, let note, let velocity) where velocity > 0:
            notes[Int(note & 0x7F)] = Stamped(velocity & 0x7F, sequenceNumber)
            noteOnOrder[Int(note & 0x7F)] = noteOnsSent
            noteOnsSent &+= 1
            loggedNotes.insert(note & 0x7F)
            sounding.insert(note & 0x7F)
        case .noteOn(_, let note, _), .noteOff(_, let note, _):
            notes[Int(note & 0x7F)] = Stamped(0, sequenceNumber)
            loggedNotes.insert(note & 0x7F)
            sounding.remove(note & 0x7F)
        case .controlChange(_, let controller, let value):
            recordControlChange(controller & 0x7F, value & 0x7F, sequenceNumber: sequenceNumber)
        case .programChange(_, let number):
            let bank = bankMSB == nil && bankLSB == nil ? nil : ProgramBank(msb: bankMSB ?? 0, lsb: bankLSB ?? 0)
            program = Stamped(ChapterP(program: number & 0x7F, bank: bank), sequenceNumber)
        case .pitchBend(_, let value):
            pitchWheel = Stamped(value & 0x3FFF, sequenceNumber)
        default:
            break
        }
    }

    /// Channel mode messages (120…127) are not logged in chapter C: All Sound Off, All
    /// Notes Off and the mode changes end the notes sounding (logged as NoteOffs),
    /// Reset All Controllers centres the pitch wheel (logged in chapter W), Local
    /// Control is not journalled.
    private mutating func recordControlChange(_ controller: UInt8, _ value: UInt8, sequenceNumber: UInt16) {
        switch controller {
        case 121:
            pitchWheel = Stamped(8192, sequenceNumber)
        case 120, 123...127:
            sounding.forEach { notes[Int($0)] = Stamped(0, sequenceNumber) }
            loggedNotes.formUnion(sounding)
            sounding = NoteSet()
        case 122:
            break  // Local Control: the receiving instrument's own setting
        default:
            controllers[Int(controller)] = Stamped(value, sequenceNumber)
            loggedControllers.insert(controller)
            if controller == 0 { bankMSB = value }
            if controller == 32 { bankLSB = value }
        }
    }

    /// Applies `change` to every entry's packet: nil drops the entry.
    mutating func restamp(_ change: (UInt16) -> UInt16?) {
        encoded = nil
        func apply<Value: Sendable>(_ entry: inout Stamped<Value>?) {
            guard let stamped = entry else { return }
            entry = change(stamped.sequenceNumber).map { Stamped(stamped.value, $0) }
        }
        let (notesBefore, controllersBefore) = (loggedNotes, loggedControllers)
        notesBefore.forEach { note in
            apply(&notes[Int(note)])
            if notes[Int(note)] == nil { loggedNotes.remove(note) }
        }
        controllersBefore.forEach { controller in
            apply(&controllers[Int(controller)])
            if controllers[Int(controller)] == nil { loggedControllers.remove(controller) }
        }
        apply(&program)
        apply(&pitchWheel)
    }

    /// The channel's journal, nil when nothing was sent since the checkpoint; entries
    /// from packet `previous` are marked as from the packet before the journal's. Note
    /// logs come in the order their NoteOns were sent, the oldest first.
    func journal(channel: UInt8, previous: UInt16) -> ChannelJournal? {
        var logs: [ChapterN.NoteLog] = []
        var offNotes = NoteSet()
        var offNotesInPreviousPacket = false
        loggedNotes.forEach { note in
            guard let entry = notes[Int(note)] else { return }
            if entry.value > 0 {
                logs.append(ChapterN.NoteLog(note: note, velocity: entry.value, inPreviousPacket: entry.sequenceNumber == previous))
            } else {
                offNotes.insert(note)
                offNotesInPreviousPacket = offNotesInPreviousPacket || entry.sequenceNumber == previous
            }
        }
        if logs.count > 1 {
            logs.sort { noteOnsSent &- noteOnOrder[Int($0.note)] > noteOnsSent &- noteOnOrder[Int($1.note)] }
        }
        var controllerLogs: [ChapterC.ControllerLog] = []
        loggedControllers.forEach { controller in
            guard let entry = controllers[Int(controller)] else { return }
            controllerLogs.append(ChapterC.ControllerLog(controller: controller, value: entry.value,
                                                         inPreviousPacket: entry.sequenceNumber == previous))
        }
        let journal = ChannelJournal(
            channel: channel,
            program: program.map { var chapter = $0.value; chapter.inPreviousPacket = $0.sequenceNumber == previous; return chapter },
            controllers: controllerLogs.isEmpty ? nil : ChapterC(logs: controllerLogs),
            pitchWheel: pitchWheel.map { ChapterW(value: $0.value, inPreviousPacket: $0.sequenceNumber == previous) },
            notes: logs.isEmpty && offNotes.isEmpty ? nil
                : ChapterN(noteLogs: logs, offNotes: offNotes, offNotesInPreviousPacket: offNotesInPreviousPacket)
        )
        return journal == ChannelJournal(channel: channel) ? nil : journal
    }
}

/// - Thread: any (a value).
extension ChannelHistory {
    /// Appends the bytes of `journal(channel:previous:)` (none when it is nil), reusing the
    /// last encoding while it still holds: nothing was recorded since, and `previous` marks
    /// the same entries as from the packet before (none, unless the channel sent in it).
    /// Most packets change one channel's journal; the others are copied.
    mutating func appendJournal(channel: UInt8, previous: UInt16, to out: inout [UInt8]) -> EncodedChannelJournal {
        if let encoded, encoded.previous == previous || (lastRecorded != previous && lastRecorded != encoded.previous) {
            out += encoded.bytes
            return encoded
        }
        var bytes: [UInt8] = []
        let journal = journal(channel: channel, previous: previous)
        journal?.encode(into: &bytes)
        let fresh = EncodedChannelJournal(bytes: bytes, previous: previous,
                                          anyInPreviousPacket: journal?.anyInPreviousPacket ?? false)
        encoded = fresh
        out += bytes
        return fresh
    }
}

/// A channel journal's bytes (empty: no journal), the `previous` packet they were encoded
/// for, and whether an element in them is from it.
///
/// - Thread: any (a value).
struct EncodedChannelJournal: Sendable {
    var bytes: [UInt8]
    var previous: UInt16
    var anyInPreviousPacket: Bool
}

/// The sequencer's state as Start, Stop, Continue, Song Position and Clock left it,
/// and the packet of the latest of them since the checkpoint.
///
/// - Thread: any (a value).
struct SequencerHistory: Sendable {
    private var running = false
    private var clocks: UInt32?
    private var changed: UInt16?

    mutating func record(_ message: MIDIMessage, sequenceNumber: UInt16) {
        switch message {
        case .start: running = true; clocks = 0
        case .continue: running = true
        case .stop: running = false
        case .songPosition(let position): clocks = UInt32(position & 0x3FFF) * 6
        case .clock where running: clocks = clocks.map { ($0 + 1) & ChapterQ.maximumClocks }
        default: return
        }
        changed = sequenceNumber
    }

    mutating func restamp(_ change: (UInt16) -> UInt16?) {
        changed = changed.flatMap(change)
    }

    func journal(previous: UInt16) -> SystemJournal? {
        guard let changed else { return nil }
        return SystemJournal(sequencer: ChapterQ(running: running, clocks: clocks, inPreviousPacket: changed == previous))
    }
}

/// A value and the sequence number of the packet that carried it.
/// - Thread: any (a value).
struct Stamped<Value: Sendable>: Sendable {
    var value: Value
    var sequenceNumber: UInt16

    init(_ value: Value, _ sequenceNumber: UInt16) {
        self.value = value
        self.sequenceNumber = sequenceNumber
    }
}
