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
/// - Thread: MIDI input (the thread that delivers events); a plain value.
public struct SoundingNotes: Hashable, Sendable {
    struct Key: Hashable, Sendable {
        var origin: NoteOrigin
        var node: NodeID
    }

    /// 16 channels × 128 notes as bits, plus one sustain bit per channel.
    struct Held: Hashable, Sendable {
        var notes = [UInt64](repeating: 0, count: 32)
        var sustain: UInt16 = 0

        var isEmpty: Bool { sustain == 0 && notes.allSatisfy { $0 == 0 } }
    }

    private var held: [Key: Held] = [:]

    public init() {}

    /// Updates the state with a message delivered to `node` that came from `origin`.
    public mutating func record(_ message: MIDIMessage, origin: NoteOrigin, node: NodeID) {
        let key = Key(origin: origin, node: node)
        switch message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            held[key, default: Held()].notes[Self.word(channel, note)] |= Self.bit(note)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            held[key]?.notes[Self.word(channel, note)] &= ~Self.bit(note)
        case .controlChange(let channel, 64, let value):
            if value >= 64 {
                held[key, default: Held()].sustain |= 1 << (channel & 0x0F)
            } else {
                held[key]?.sustain &= ~(1 << (channel & 0x0F))
            }
        case .controlChange(let channel, 120, _), .controlChange(let channel, 123, _):
            held[key]?.notes[Int(channel & 0x0F) * 2] = 0
            held[key]?.notes[Int(channel & 0x0F) * 2 + 1] = 0
        default:
            return
        }
        if held[key]?.isEmpty == true { held[key] = nil }
    }

    /// True when nothing is held anywhere.
    public var isEmpty: Bool { held.isEmpty }

    /// The held notes of `origin` at `node`, as (channel, note) pairs.
    public func notes(origin: NoteOrigin, node: NodeID) -> [(channel: UInt8, note: UInt8)] {
        guard let entry = held[Key(origin: origin, node: node)] else { return [] }
        return Self.pairs(entry)
    }

    /// Note-offs and sustain-offs for everything held at `node` by origins that satisfy `matching`,
    /// forgetting them. Each message is sent once even if several origins held it.
    public mutating func release(node: NodeID, origins matching: (NoteOrigin) -> Bool = { _ in true }) -> NodeRelease? {
        let keys = held.keys.filter { $0.node == node && matching($0.origin) }
        guard !keys.isEmpty else { return nil }
        var merged = Held()
        for key in keys {
            guard let entry = held.removeValue(forKey: key) else { continue }
            for index in 0..<32 { merged.notes[index] |= entry.notes[index] }
            merged.sustain |= entry.sustain
        }
        var messages = Self.pairs(merged).map { MIDIMessage.noteOff(channel: $0.channel, note: $0.note, velocity: 0) }
        for channel in UInt8(0)..<16 where merged.sustain & (1 << channel) != 0 {
            messages.append(.controlChange(channel: channel, controller: 64, value: 0))
        }
        return NodeRelease(node: node, messages: messages)
    }

    /// Releases everything `device` holds, at every node it fed (for "device unplugged"), sorted by node.
    public mutating func releaseDevice(_ device: PortIdentity) -> [NodeRelease] {
        let nodes = Set(held.keys.filter { $0.origin.device == device }.map(\.node)).sorted()
        return nodes.compactMap { release(node: $0, origins: { $0.device == device }) }
    }

    /// The origins holding anything at `node`.
    public func origins(at node: NodeID) -> Set<NoteOrigin> {
        Set(held.keys.filter { $0.node == node }.map(\.origin))
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
