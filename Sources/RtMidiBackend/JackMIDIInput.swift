import Synchronization

/// A JACK MIDI input port of midihub's: a virtual port other JACK clients connect
/// to, or a port connected to an existing source at open.
///
/// Receiving: RtMidi calls back on JACK's process thread; the callback parses the
/// bytes with `MIDIParser` and queues the messages in a bounded inbox (a short mutex
/// hold, no wait). The owner drains the inbox with `drain(into:)`, typically after
/// the `onEvents` hook given at open has woken it.
///
/// - Thread: any (all methods are safe to call concurrently).
public final class JackMIDIInput: Sendable {
    /// This port's own JACK name (what other clients connect to).
    public let name: JackPortName
    /// The source it was connected to at open; `nil` for a virtual port.
    public let connectedSource: JackPortName?

    private let inbox: JackMIDIInbox
    private let device: Mutex<RtMidiDevice?>

    init(device: consuming sending RtMidiDevice, inbox: JackMIDIInbox, name: JackPortName, connectedSource: JackPortName?) {
        self.name = name
        self.connectedSource = connectedSource
        self.inbox = inbox
        self.device = Mutex(device)
    }

    deinit {
        close()
    }

    /// Moves every event received so far, oldest first, to the end of `events`.
    /// Events received before `close()` can still be drained after it.
    /// - Thread: any.
    public func drain(into events: inout [JackMIDIEvent]) {
        inbox.drain(into: &events)
    }

    /// Every event received so far, oldest first.
    /// - Thread: any.
    public func drain() -> [JackMIDIEvent] {
        var events: [JackMIDIEvent] = []
        inbox.drain(into: &events)
        return events
    }

    /// Events dropped because the inbox held `inboxCapacity` undrained events.
    /// - Thread: any.
    public var droppedEvents: Int { inbox.droppedCount }

    /// How many undrained events the inbox holds before it drops new ones.
    public var inboxCapacity: Int { inbox.capacity }

    /// True until `close()`.
    /// - Thread: any.
    public var isOpen: Bool { device.withLock { $0 != nil } }

    /// Unregisters the port and closes its JACK client; no callback runs after this
    /// returns. Idempotent.
    /// - Thread: any but JACK's process thread (it waits for that thread).
    public func close() {
        let closing = device.withLock { device -> RtMidiDevice? in
            defer { device = nil }
            return device
        }
        closing?.close()
    }
}
