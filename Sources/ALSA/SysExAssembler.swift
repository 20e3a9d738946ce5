/// Joins SysEx that arrives in pieces (the kernel's MIDI-byte converter sends
/// long messages as several variable-length events), one buffer per source.
///
/// A piece starting with F0 begins a message; one ending with F7 completes it.
/// Pieces without a beginning and messages past `maximumLength` are dropped.
///
/// - Thread: the thread of the owning `SeqClient`.
struct SysExAssembler {
    static let maximumLength = 1 << 20
    private var partial: [SeqAddress: [UInt8]] = [:]

    /// Adds a piece from `source`; returns the payload (between F0 and F7) once complete.
    mutating func add(_ piece: UnsafeRawBufferPointer, from source: SeqAddress) -> [UInt8]? {
        guard let first = piece.first else { return nil }
        let started = partial.removeValue(forKey: source)
        var buffer: [UInt8]
        if first == 0xF0 {
            buffer = Array(piece.dropFirst())
        } else if let started {
            buffer = started + piece
        } else {
            return nil
        }
        if buffer.last == 0xF7 {
            buffer.removeLast()
            return buffer
        }
        if buffer.count <= Self.maximumLength {
            partial[source] = buffer
        }
        return nil
    }
}
