import Testing
@testable import Plugins

/// The atom sequences of a plugin's ports as the host writes and reads them, against a
/// plugin that writes past its buffer or lies about an event's size.
@Suite struct AtomSequenceTests {
    static let atoms = AtomSequence(urids: URIDMap(), capacity: 64)

    static func withBuffer(_ body: (UnsafeMutableRawPointer) -> Void) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: atoms.capacity, alignment: 8)
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: atoms.capacity)
        defer { buffer.deallocate() }
        body(buffer)
    }

    static func events(in buffer: UnsafeMutableRawPointer) -> [(Int64, [UInt8])] {
        var events: [(Int64, [UInt8])] = []
        atoms.forEachMIDIEvent(in: buffer) { frame, bytes in events.append((frame, Array(bytes))) }
        return events
    }

    @Test func eventsAppendedAtTheirFramesReadBackInOrderUntilTheBufferIsFull() {
        Self.withBuffer { buffer in
            Self.atoms.begin(buffer)
            let note: [UInt8] = [0x90, 60, 100]
            func append(at frame: Int64) -> Bool {
                Self.atoms.append(3, at: frame, to: buffer) { body in body.copyMemory(from: note, byteCount: 3) }
            }
            // 64 bytes: the 16-byte header, then two events of 16 + 8 bytes; the third does not fit.
            #expect(append(at: 0) && append(at: 7))
            #expect(!append(at: 9))
            #expect(Self.events(in: buffer).map(\.0) == [0, 7])
            #expect(Self.events(in: buffer).map(\.1) == [note, note])
        }
    }

    @Test func aSizeThatRunsPastTheBufferEndsTheReadingAndANegativeFrameIsFrameZero() {
        Self.withBuffer { buffer in
            Self.atoms.begin(buffer)
            _ = Self.atoms.append(3, at: -5, to: buffer) { body in body.storeBytes(of: 0x80, as: UInt8.self) }
            // A second event whose size claims 4 GB, and a sequence size past the buffer's end.
            _ = Self.atoms.append(3, at: 1, to: buffer) { _ in }
            buffer.storeBytes(of: UInt32.max, toByteOffset: 16 + 24 + 8, as: UInt32.self)
            buffer.storeBytes(of: UInt32.max, toByteOffset: 0, as: UInt32.self)
            let events = Self.events(in: buffer)
            #expect(events.map(\.0) == [0])
            #expect(events.first?.1.first == 0x80)
        }
    }

    @Test func anOutputOfferedAsAChunkReadsAsNoEvents() {
        Self.withBuffer { buffer in
            Self.atoms.offer(buffer)
            #expect(Self.events(in: buffer).isEmpty)
        }
    }
}
