import MIDICore
import RTPMIDI
import Synchronization

/// What the session ports were sent, waiting for the event loop: the sequencer thread adds
/// and asks for one flush; the loop takes all there is when it gets to it. A loop that is
/// behind therefore sends fewer, fuller packets instead of falling further behind, and the
/// sequencer thread never waits for it.
///
/// - Thread: `add` the sequencer thread; `take` the event loop.
final class OutgoingMIDI: Sendable {
    private let waiting = Mutex<(messages: [SessionID: [MIDIMessage]], flushAsked: Bool)>(([:], false))

    /// Adds what a session's port was sent; true when the caller must ask the loop to flush.
    func add(_ messages: [MIDIMessage], for id: SessionID) -> Bool {
        waiting.withLock { waiting in
            waiting.messages[id, default: []] += messages
            defer { waiting.flushAsked = true }
            return !waiting.flushAsked
        }
    }

    /// Everything waiting, by session (oldest session first), and the next `add` asks again.
    func take() -> [(SessionID, [MIDIMessage])] {
        waiting.withLock { waiting in
            defer { waiting = ([:], false) }
            return waiting.messages.sorted { $0.key < $1.key }
        }
    }
}
