internal import CRtMidi
import Synchronization

/// Collects the error messages RtMidi reports for one RtMidi object (instead of
/// printing them), so the call that caused them can turn them into a typed error.
///
/// - Thread: any; RtMidi reports on the calling thread, rarely on JACK's.
final class RtMidiErrorLog: Sendable {
    private let messages = Mutex<[String]>([])

    /// Records one report; debug warnings (RtMidi's chatter, not failures) are dropped.
    func record(type: Int32, message: String) {
        guard type != Int32(RTMIDI_ERROR_DEBUG_WARNING.rawValue) else { return }
        messages.withLock { $0.append(message) }
    }

    /// Returns and forgets the messages recorded so far.
    func take() -> [String] {
        messages.withLock { log in
            defer { log.removeAll() }
            return log
        }
    }
}
