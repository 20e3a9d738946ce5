import MIDICore
import RenderCore

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

/// The hand-off between JACK's process thread and the owner of a `JackMIDIInput`: RtMidi's
/// callback copies each JACK event's bytes, tagged with its time since the previous one, into
/// a `MIDIEventRing` (no lock, no allocation on JACK's thread); the owner drains the ring and
/// parses the messages. An event the ring has no room for is dropped whole and counted;
/// JACK's thread never waits.
///
/// - Thread: any: `receive` on JACK's process thread (the ring's producer); `drain` on one
///   consumer thread (the owner); `droppedCount` any.
final class JackMIDIInbox: @unchecked Sendable {
    /// Bytes the ring keeps per event of `capacity`: room for notes and for SysEx dumps
    /// among them (a burst of 3,000 notes and 20 SysEx messages of 2,000 bytes fits 4,096).
    private static let bytesPerEvent = 64

    /// The events the ring holds undrained, on average (notes take 13 bytes, a SysEx message
    /// its length and 10).
    let capacity: Int
    private let ring: MIDIEventRing
    private let onEvents: (@Sendable () -> Void)?
    /// The consumer's: the parser (running status, SysEx across events), whether an event
    /// came before, and the bytes of the event being read.
    private var parser = MIDIParser()
    private var isFirst = true
    private var bytes: [UInt8] = []

    init(capacity: Int, onEvents: (@Sendable () -> Void)?) {
        self.capacity = capacity
        self.onEvents = onEvents
        ring = MIDIEventRing(minimumBytes: capacity * Self.bytesPerEvent)
    }

    /// Queues one JACK MIDI event's bytes, or drops and counts it when the ring lacks room.
    /// - Thread: render (JACK's process thread: no lock, no allocation; RtMidi's input callback).
    func receive(_ event: UnsafeBufferPointer<UInt8>, secondsSincePrevious: Double) {
        guard let start = event.baseAddress,
              ring.stage(start, count: event.count, tag: secondsSincePrevious.bitPattern) else { return }
        ring.publish()
        onEvents?()
    }

    /// Parses every queued event, oldest first, and appends its messages to `events`.
    /// - Thread: owner (the consumer, typically the owner's MIDI thread).
    func drain(into events: inout [JackMIDIEvent]) {
        while let delta = ring.pop(into: &bytes) {
            var seconds = isFirst ? 0 : Double(bitPattern: delta)
            isFirst = false
            bytes.withUnsafeBufferPointer { event in
                parser.feed(event) { message in
                    events.append(JackMIDIEvent(message: message, secondsSincePrevious: seconds))
                    seconds = 0
                }
            }
        }
    }

    /// Events dropped so far because the ring was full.
    var droppedCount: Int { ring.droppedCount }
}
