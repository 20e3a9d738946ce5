import MIDICore
import Synchronization

/// A JACK MIDI output port of midihub's: a virtual port other JACK clients connect
/// to, or a port connected to an existing destination at open.
///
/// `send` hands the message to RtMidi's ring buffer; JACK's process thread writes it
/// out in the next period, in send order.
///
/// - Thread: any (sends are serialised by a mutex).
public final class JackMIDIOutput: Sendable {
    /// This port's own JACK name (what other clients connect to).
    public let name: JackPortName
    /// The destination it was connected to at open; `nil` for a virtual port.
    public let connectedDestination: JackPortName?

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
    /// - Throws: `JackMIDIError.portClosed` after `close()`; `.rtMidi` with RtMidi's
    ///   message when it refuses (e.g. its ring buffer is full).
    /// - Thread: any.
    public func send(_ message: MIDIMessage) throws(JackMIDIError) {
        try device.withLock { device throws(JackMIDIError) in
            guard let device else { throw .portClosed(name) }
            try device.send(message.bytes, describing: name.description)
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
