/// A set of MIDI note numbers (0…127) in two words.
///
/// - Thread: any (a value).
public struct NoteSet: Hashable, Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    public init() {}

    public init(_ notes: some Sequence<UInt8>) {
        for note in notes { insert(note) }
    }

    public var isEmpty: Bool { low == 0 && high == 0 }

    /// The notes, lowest first.
    public var notes: [UInt8] { (0...127).filter { contains($0) } }

    public func contains(_ note: UInt8) -> Bool {
        guard note < 128 else { return false }
        return (note < 64 ? low : high) & (1 << UInt64(note & 63)) != 0
    }

    /// Adds `note`; notes above 127 are ignored.
    public mutating func insert(_ note: UInt8) {
        guard note < 128 else { return }
        if note < 64 { low |= 1 << UInt64(note) } else { high |= 1 << UInt64(note & 63) }
    }

    public mutating func remove(_ note: UInt8) {
        guard note < 128 else { return }
        if note < 64 { low &= ~(1 << UInt64(note)) } else { high &= ~(1 << UInt64(note & 63)) }
    }
}
