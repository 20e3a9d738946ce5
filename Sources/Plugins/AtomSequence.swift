internal import CLilv
import MIDICore

/// The LV2 atom sequences in a plugin's port buffers, as the host writes and reads them: an
/// input begun empty (frame times) and MIDI events appended at their frames, an output's
/// space offered as a `Chunk` of the buffer's size, the MIDI events a plugin wrote read back.
/// Bytes go straight into and out of the buffer: no allocation, no lock (the render thread
/// for a plugin node, the MIDI input thread for a MIDI effect).
///
/// - Thread: any (a plain value; each buffer is used on one thread).
struct AtomSequence {
    let sequence: LV2_URID
    let chunk: LV2_URID
    let midiEvent: LV2_URID
    /// Each buffer's size in bytes (`PortLayout.atomBufferSize`).
    let capacity: Int

    /// - Thread: any.
    init(urids map: URIDMap, capacity: Int) {
        sequence = map.id(of: LV2Vocabulary.atomSequence)
        chunk = map.id(of: LV2Vocabulary.atomChunk)
        midiEvent = map.id(of: LV2Vocabulary.midiEvent)
        self.capacity = capacity
    }

    /// Makes `buffer` an empty sequence (of frame times).
    /// - Thread: any (the buffer's).
    func begin(_ buffer: UnsafeMutableRawPointer) {
        buffer.storeBytes(of: 8, toByteOffset: 0, as: UInt32.self)  // the body's unit and pad
        buffer.storeBytes(of: sequence, toByteOffset: 4, as: UInt32.self)
        buffer.storeBytes(of: UInt64(0), toByteOffset: 8, as: UInt64.self)
    }

    /// Offers the plugin the whole of output `buffer` to write its sequence into.
    /// - Thread: any (the buffer's).
    func offer(_ buffer: UnsafeMutableRawPointer) {
        buffer.storeBytes(of: UInt32(capacity - 8), toByteOffset: 0, as: UInt32.self)
        buffer.storeBytes(of: chunk, toByteOffset: 4, as: UInt32.self)
    }

    /// Appends a `midi:MidiEvent` of `count` bytes at `frame` to the sequence in `buffer`,
    /// its bytes written by `write` at the pointer it gets.
    /// - Returns: false when it does not fit (nothing written).
    /// - Thread: any (the buffer's).
    func append(_ count: Int, at frame: Int64, to buffer: UnsafeMutableRawPointer,
                write: (UnsafeMutableRawPointer) -> Void) -> Bool {
        if buffer.load(fromByteOffset: 4, as: UInt32.self) != sequence { begin(buffer) }
        let size = Int(buffer.load(as: UInt32.self))
        let offset = 8 + size, length = 16 + (count + 7) & ~7
        guard count > 0, offset + length <= capacity else { return false }
        buffer.storeBytes(of: frame, toByteOffset: offset, as: Int64.self)
        buffer.storeBytes(of: UInt32(count), toByteOffset: offset + 8, as: UInt32.self)
        buffer.storeBytes(of: midiEvent, toByteOffset: offset + 12, as: UInt32.self)
        write(buffer + offset + 16)
        buffer.storeBytes(of: UInt32(size + length), toByteOffset: 0, as: UInt32.self)
        return true
    }

    /// Appends the atom of `count` bytes (header and body) at `atom` at `frame` to the
    /// sequence in `buffer`; false when it does not fit (nothing written).
    /// - Thread: any (the buffer's).
    func append(atom: UnsafeRawPointer, count: Int, at frame: Int64, to buffer: UnsafeMutableRawPointer) -> Bool {
        if buffer.load(fromByteOffset: 4, as: UInt32.self) != sequence { begin(buffer) }
        let size = Int(buffer.load(as: UInt32.self))
        let offset = 8 + size, length = 8 + (count + 7) & ~7
        guard count >= 8, offset + length <= capacity else { return false }
        buffer.storeBytes(of: frame, toByteOffset: offset, as: Int64.self)
        (buffer + offset + 8).copyMemory(from: atom, byteCount: count)
        buffer.storeBytes(of: UInt32(size + length), toByteOffset: 0, as: UInt32.self)
        return true
    }

    /// The MIDI events of the sequence a plugin wrote in `buffer`, in order, each with its
    /// frame (never negative) and bytes; a size that runs past the buffer ends the reading.
    /// - Thread: any (the buffer's).
    func forEachMIDIEvent(in buffer: UnsafeMutableRawPointer, _ body: (Int64, UnsafeBufferPointer<UInt8>) -> Void) {
        guard buffer.load(fromByteOffset: 4, as: UInt32.self) == sequence else { return }
        let end = 8 + min(Int(buffer.load(as: UInt32.self)), capacity - 8)
        var offset = 16
        while offset + 16 <= end {
            let frame = buffer.load(fromByteOffset: offset, as: Int64.self)
            let size = Int(buffer.load(fromByteOffset: offset + 8, as: UInt32.self))
            let type = buffer.load(fromByteOffset: offset + 12, as: UInt32.self)
            guard size <= end - offset - 16 else { break }
            if type == midiEvent {
                body(max(frame, 0), UnsafeRawBufferPointer(start: buffer + offset + 16, count: size).bindMemory(to: UInt8.self))
            }
            offset += 16 + (size + 7) & ~7
        }
    }
}
