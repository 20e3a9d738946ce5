import MIDICore
import Glibc

/// Joins SysEx that arrives in pieces (the kernel's MIDI-byte converter sends
/// long messages as several variable-length events), one buffer per source.
///
/// A piece starting with F0 begins a message; one ending with F7 completes it.
/// Pieces without a beginning and messages past `maximumLength` are dropped. Each piece is
/// appended in place (linear in the message's length, never a copy of what came before), and
/// a message whose next piece does not come within `patience` (its sender left, or stopped
/// mid-message) is forgotten.
///
/// - Thread: the thread of the owning `SeqClient`.
struct SysExAssembler {
    static let maximumLength = 1 << 20
    /// How long an unfinished message waits for its next piece.
    static let patience: HostDuration = 5

    private var partial: [SeqAddress: (bytes: [UInt8], last: HostTime)] = [:]

    /// Messages waiting for more pieces.
    var unfinished: Int { partial.count }

    /// Adds a piece from `source` that arrived at `now` (the monotonic clock); returns the
    /// payload (between F0 and F7) once complete.
    mutating func add(_ piece: UnsafeRawBufferPointer, from source: SeqAddress, at now: HostTime = .now()) -> [UInt8]? {
        guard let first = piece.first else { return nil }
        if !partial.isEmpty { forget(before: now - Self.patience) }
        var buffer: [UInt8]
        if first == 0xF0 {
            partial[source] = nil
            buffer = Array(piece.dropFirst())
        } else if let started = partial.removeValue(forKey: source) {
            buffer = started.bytes  // removed from the dictionary: appended to in place
            buffer.append(contentsOf: piece)
        } else {
            return nil
        }
        if buffer.last == 0xF7 {
            buffer.removeLast()
            return buffer
        }
        if buffer.count <= Self.maximumLength {
            partial[source] = (buffer, now)
        }
        return nil
    }

    private mutating func forget(before limit: HostTime) {
        partial = partial.filter { $0.value.last >= limit }
    }
}
