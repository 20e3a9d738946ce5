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
    public var notes: [UInt8] {
        var notes: [UInt8] = []
        forEach { notes.append($0) }
        return notes
    }

    /// Calls `body` with each note, lowest first (a step per note, not per number).
    func forEach(_ body: (UInt8) -> Void) {
        Self.forEachBit(of: low, from: 0, body)
        Self.forEachBit(of: high, from: 64, body)
    }

    private static func forEachBit(of word: UInt64, from base: Int, _ body: (UInt8) -> Void) {
        var rest = word
        while rest != 0 {
            body(UInt8(base + rest.trailingZeroBitCount))
            rest &= rest - 1
        }
    }

    public func contains(_ note: UInt8) -> Bool {
        guard note < 128 else { return false }
        return (note < 64 ? low : high) & (1 << UInt64(note & 63)) != 0
    }

    /// Adds `note`; notes above 127 are ignored.
    public mutating func insert(_ note: UInt8) {
        guard note < 128 else { return }
        if note < 64 { low |= 1 << UInt64(note) } else { high |= 1 << UInt64(note & 63) }
    }

    /// Octet `index` (0…15) of the set as RFC 6295's OFFBITS write it: notes 8·index to
    /// 8·index + 7, the lowest in the most significant bit.
    func octet(_ index: Int) -> UInt8 {
        let word = index < 8 ? low : high
        var byte = UInt8(truncatingIfNeeded: word >> UInt64(8 * (index & 7)))
        byte = byte >> 4 | byte << 4
        byte = (byte & 0xCC) >> 2 | (byte & 0x33) << 2
        return (byte & 0xAA) >> 1 | (byte & 0x55) << 1
    }

    /// Adds every note of `other`.
    mutating func formUnion(_ other: NoteSet) {
        low |= other.low
        high |= other.high
    }

    public mutating func remove(_ note: UInt8) {
        guard note < 128 else { return }
        if note < 64 { low &= ~(1 << UInt64(note)) } else { high &= ~(1 << UInt64(note & 63)) }
    }
}
