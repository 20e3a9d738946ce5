import MIDICore
import Synchronization

/// A JACK MIDI output port of midihub's: a virtual port other JACK clients connect
/// to, or a port connected to an existing destination at open.
///
/// `send` hands the message to RtMidi's 16 KiB ring buffer; JACK's process thread
/// writes it out in the next period, in send order. When a burst fills the ring,
/// `send` waits (about a period) until JACK has drained room for the message.
///
/// - Thread: any (sends are serialised by a mutex).
public final class JackMIDIOutput: Sendable {
    /// This port's own JACK name (what other clients connect to).
    public let name: JackPortName
    /// The destination it was connected to at open; `nil` for a virtual port.
    public let connectedDestination: JackPortName?

    /// The longest message, in wire bytes, RtMidi 5 carries: its JACK ring buffer
    /// (16 384 bytes, one kept free) less the 4-byte length it stores before each
    /// message. RtMidi silently drops a longer one, so `send` refuses it instead.
    public static let maxMessageBytes = 16_379

    private let device: Mutex<RtMidiDevice?>

    init(device: consuming sending RtMidiDevice, name: JackPortName, connectedDestination: JackPortName?) {
        self.name = name
        self.connectedDestination = connectedDestination
        self.device = Mutex(device)
    }

    deinit {
        close()
    }

    /// Sends one message, encoded with `MIDIMessage.bytes` (full status, SysEx framed
    /// by F0…F7).
    /// - Throws: `JackMIDIError.messageTooLong` past `maxMessageBytes`;
    ///   `.portClosed` after `close()`; `.rtMidi` with RtMidi's message when it refuses.
    /// - Thread: any (not JACK's process thread: a full ring waits for it).
    public func send(_ message: MIDIMessage) throws(JackMIDIError) {
        let bytes = message.bytes
        guard bytes.count <= Self.maxMessageBytes else {
            throw .messageTooLong(bytes: bytes.count, limit: Self.maxMessageBytes, port: name)
        }
        try device.withLock { device throws(JackMIDIError) in
            guard let device else { throw .portClosed(name) }
            try device.send(bytes, describing: name.description)
        }
    }

    /// True until `close()`.
    /// - Thread: any.
    public var isOpen: Bool { device.withLock { $0 != nil } }

    /// Unregisters the port and closes its JACK client. Messages still in RtMidi's
    /// ring buffer may be lost. Idempotent.
    /// - Thread: any.
    public func close() {
        let closing = device.withLock { device -> RtMidiDevice? in
            defer { device = nil }
            return device
        }
        closing?.close()
    }
}
