import MIDICore
import Synchronization

/// One message received on a JACK MIDI input.
///
/// - Thread: any (a plain value).
public struct JackMIDIEvent: Equatable, Sendable {
    public var message: MIDIMessage
    /// Seconds since the previous event on the same port, from JACK's clock (as
    /// RtMidi reports it); 0 for the first event and for later messages parsed from
    /// the same JACK event.
    public var secondsSincePrevious: Double

    /// - Thread: any.
    public init(message: MIDIMessage, secondsSincePrevious: Double) {
        self.message = message
        self.secondsSincePrevious = secondsSincePrevious
    }
}

/// The hand-off between JACK's process thread and the owner of a `JackMIDIInput`:
/// RtMidi's callback parses the bytes and appends events under a short mutex hold;
/// the owner drains them. A full inbox drops the new events and counts them; it
/// never blocks the JACK thread beyond that hold.
///
/// - Thread: `receive` on JACK's process thread; the rest any.
final class JackMIDIInbox: Sendable {
    private struct State {
        var parser = MIDIParser()
        var events: [JackMIDIEvent] = []
        var dropped = 0
        var isFirst = true
    }

    let capacity: Int
    private let state: Mutex<State>
    private let onEvents: (@Sendable () -> Void)?

    init(capacity: Int, onEvents: (@Sendable () -> Void)?) {
        self.capacity = capacity
        self.onEvents = onEvents
        var initial = State()
        initial.events.reserveCapacity(capacity)
        state = Mutex(initial)
    }

    /// Parses one JACK MIDI event's bytes and queues the messages they complete.
    /// - Thread: JACK's process thread (RtMidi's input callback).
    func receive(_ bytes: UnsafeBufferPointer<UInt8>, secondsSincePrevious: Double) {
        let queuedAny = state.withLock { state in
            var delta = state.isFirst ? 0 : secondsSincePrevious
            state.isFirst = false
            let countBefore = state.events.count
            let capacity = self.capacity
            state.parser.feed(bytes) { message in
                if state.events.count < capacity {
                    state.events.append(JackMIDIEvent(message: message, secondsSincePrevious: delta))
                } else {
                    state.dropped += 1
                }
                delta = 0
            }
            return state.events.count > countBefore
        }
        if queuedAny { onEvents?() }
    }

    /// Moves every queued event, oldest first, to the end of `events`.
    /// - Thread: any (typically the owner's MIDI thread).
    func drain(into events: inout [JackMIDIEvent]) {
        state.withLock { state in
            events.append(contentsOf: state.events)
            state.events.removeAll(keepingCapacity: true)
        }
    }

    /// Events dropped so far because the inbox was full.
    var droppedCount: Int { state.withLock { $0.dropped } }
}
