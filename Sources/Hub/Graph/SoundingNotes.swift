import MIDICore

/// Where a sounding note came from: the graph's source node and, when known, the device port.
///
/// - Thread: any (a plain value).
public struct NoteOrigin: Hashable, Sendable {
    public var source: NodeID
    public var device: PortIdentity?

    public init(source: NodeID, device: PortIdentity? = nil) {
        self.source = source
        self.device = device
    }
}

/// Messages that silence one node.
///
/// - Thread: any (a plain value).
public struct NodeRelease: Hashable, Sendable {
    public var node: NodeID
    public var messages: [MIDIMessage]

    public init(node: NodeID, messages: [MIDIMessage]) {
        self.node = node
        self.messages = messages
    }

    /// Sustain off and all-notes-off (CC 64 = 0, CC 123 = 0) on all 16 channels: for external nodes,
    /// whose exact state the hub cannot see.
    public static func allNotesOff(_ node: NodeID) -> NodeRelease {
        NodeRelease(node: node, messages: (0..<16).flatMap { channel in
            [MIDIMessage.controlChange(channel: channel, controller: 64, value: 0),
             .controlChange(channel: channel, controller: 123, value: 0)]
        })
    }
}

/// Which notes (and sustain pedals) each origin holds down at each node it fed, so that a removed
/// node, a broken path or an unplugged device can be answered with exactly the right note-offs.
/// Record what was *delivered* to a node (after processing), tagged with its origin.
///
/// Each (origin, node) pair has a slot, a small integer made once by `slot(origin:node:)`;
/// `record(_:at:)` with a slot is the routing path: no hashing, no allocation (the held notes
/// are inline bits). Slots stay valid until `compact()`, which drops the empty ones.
///
/// - Thread: owner (the MIDI input thread, which delivers events); a plain value.
public struct SoundingNotes: Sendable {
    /// One (origin, node) pair's number in this state, from `slot(origin:node:)`.
    public struct Slot: Hashable, Sendable {
        let index: Int
    }

    struct Key: Hashable, Sendable {
        var origin: NoteOrigin
        var node: NodeID
    }

    /// 16 channels × 128 notes as bits, plus one sustain bit per channel.
    struct Held: Sendable {
        var notes = InlineArray<32, UInt64>(repeating: 0)
        var sustain: UInt16 = 0

        var isEmpty: Bool {
            guard sustain == 0 else { return false }
            for index in notes.indices where notes[index] != 0 { return false }
            return true
        }

        mutating func merge(_ other: Held) {
            for index in notes.indices { notes[index] |= other.notes[index] }
            sustain |= other.sustain
        }
    }

    private var keys: [Key] = []
    private var held: [Held] = []
    private var slots: [Key: Int] = [:]

    public init() {}

    /// The slot of notes `origin` holds at `node`, made when new (control work: hashes the names).
    public mutating func slot(origin: NoteOrigin, node: NodeID) -> Slot {
        let key = Key(origin: origin, node: node)
        if let index = slots[key] { return Slot(index: index) }
        keys.append(key)
        held.append(Held())
        slots[key] = keys.count - 1
        return Slot(index: keys.count - 1)
    }

    /// Forgets the slots that hold nothing; slots made before are invalid afterwards.
    public mutating func compact() {
        let kept = held.indices.filter { !held[$0].isEmpty }
        keys = kept.map { keys[$0] }
        held = kept.map { held[$0] }
        slots = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
    }

    /// Updates the state with a message delivered to `node` that came from `origin`.
    public mutating func record(_ message: MIDIMessage, origin: NoteOrigin, node: NodeID) {
        record(message, at: slot(origin: origin, node: node))
    }

    /// Updates the state with a message delivered to the pair of `slot`.
    public mutating func record(_ message: MIDIMessage, at slot: Slot) {
        switch message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            held[slot.index].notes[Self.word(channel, note)] |= Self.bit(note)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            held[slot.index].notes[Self.word(channel, note)] &= ~Self.bit(note)
        case .controlChange(let channel, 64, let value):
            if value >= 64 {
                held[slot.index].sustain |= 1 << (channel & 0x0F)
            } else {
                held[slot.index].sustain &= ~(1 << (channel & 0x0F))
            }
        case .controlChange(let channel, 120, _), .controlChange(let channel, 123, _):
            held[slot.index].notes[Int(channel & 0x0F) * 2] = 0
            held[slot.index].notes[Int(channel & 0x0F) * 2 + 1] = 0
        default:
            return
        }
    }

    /// True when nothing is held anywhere.
    public var isEmpty: Bool { held.allSatisfy(\.isEmpty) }

    /// The held notes of `origin` at `node`, as (channel, note) pairs.
    public func notes(origin: NoteOrigin, node: NodeID) -> [(channel: UInt8, note: UInt8)] {
        guard let index = slots[Key(origin: origin, node: node)] else { return [] }
        return Self.pairs(held[index])
    }

    /// Note-offs and sustain-offs for everything held at `node` by origins that satisfy `matching`,
    /// forgetting them. Each message is sent once even if several origins held it.
    public mutating func release(node: NodeID, origins matching: (NoteOrigin) -> Bool = { _ in true }) -> NodeRelease? {
        var merged = Held(), found = false
        for index in keys.indices where keys[index].node == node && !held[index].isEmpty && matching(keys[index].origin) {
            merged.merge(held[index])
            held[index] = Held()
            found = true
        }
        guard found else { return nil }
        var messages = Self.pairs(merged).map { MIDIMessage.noteOff(channel: $0.channel, note: $0.note, velocity: 0) }
        for channel in UInt8(0)..<16 where merged.sustain & (1 << channel) != 0 {
            messages.append(.controlChange(channel: channel, controller: 64, value: 0))
        }
        return NodeRelease(node: node, messages: messages)
    }

    /// Releases everything `device` holds, at every node it fed (for "device unplugged"), sorted by node.
    public mutating func releaseDevice(_ device: PortIdentity) -> [NodeRelease] {
        let nodes = Set(keys.indices.filter { keys[$0].origin.device == device && !held[$0].isEmpty }.map { keys[$0].node })
        return nodes.sorted().compactMap { release(node: $0, origins: { $0.device == device }) }
    }

    /// The origins holding anything at `node`.
    public func origins(at node: NodeID) -> Set<NoteOrigin> {
        Set(keys.indices.filter { keys[$0].node == node && !held[$0].isEmpty }.map { keys[$0].origin })
    }

    private static func word(_ channel: UInt8, _ note: UInt8) -> Int { Int(channel & 0x0F) * 2 + Int(note & 0x7F) / 64 }

    private static func bit(_ note: UInt8) -> UInt64 { 1 << UInt64(note & 0x3F) }

    private static func pairs(_ entry: Held) -> [(channel: UInt8, note: UInt8)] {
        var result: [(channel: UInt8, note: UInt8)] = []
        for index in 0..<32 where entry.notes[index] != 0 {
            for bit in 0..<64 where entry.notes[index] & (1 << UInt64(bit)) != 0 {
                result.append((UInt8(index / 2), UInt8((index % 2) * 64 + bit)))
            }
        }
        return result
    }
}
