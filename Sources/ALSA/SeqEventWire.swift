internal import CALSA
import MIDICore

/// The bytes of a read from the sequencer, cut into events as alsa-lib's
/// `snd_seq_event_input` cuts them: each `snd_seq_event_t`, and after a variable-length
/// one (SysEx) its `ext.len` bytes of data, padded to whole events, which its data pointer
/// then points at. Every field comes from whichever client sent the event, so this is the
/// shape untrusted input takes on its way to `SeqEventCodec`; the fuzz target
/// `FuzzSeqEvent` feeds it arbitrary bytes (`SeqClient` reads through alsa-lib itself).
///
/// - Thread: any (pure functions; `decode` mutates only the assembler it is given).
enum SeqEventWire {
    static let eventSize = MemoryLayout<snd_seq_event_t>.size

    /// Decodes every whole event in `bytes`, in order, joining SysEx pieces in `sysEx`.
    static func decode(_ bytes: UnsafeRawBufferPointer, sysEx: inout SysExAssembler) -> [SeqEvent] {
        var events: [SeqEvent] = []
        var offset = 0
        while offset + eventSize <= bytes.count {
            var event = snd_seq_event_t()
            withUnsafeMutableBytes(of: &event) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + eventSize])) }
            offset += eventSize
            if midihub_seq_ev_is_variable(&event) != 0 {
                let length = Int(event.data.ext.len)
                guard length <= bytes.count - offset else { break }
                event.data.ext.ptr = UnsafeMutableRawPointer(mutating: bytes.baseAddress.map { $0 + offset })
                offset += (length + eventSize - 1) / eventSize * eventSize
            }
            if let decoded = SeqEventCodec.decode(event, sysEx: &sysEx) { events.append(decoded) }
        }
        return events
    }

    /// The bytes a read returns for `message` sent from `source`: what `decode` reads back.
    static func bytes(for message: MIDIMessage, from source: SeqAddress) -> [UInt8] {
        (try? SeqEventCodec.withEvent(for: message) { (event) throws(ALSAError) -> [UInt8] in
            event.source.client = source.client
            event.source.port = source.port
            var wire = withUnsafeBytes(of: event) { Array($0) }
            if midihub_seq_ev_is_variable(&event) != 0 {
                let data = UnsafeRawBufferPointer(start: event.data.ext.ptr, count: Int(event.data.ext.len))
                wire += Array(data) + [UInt8](repeating: 0, count: (eventSize - data.count % eventSize) % eventSize)
            }
            return wire
        }) ?? []
    }
}
