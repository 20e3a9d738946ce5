import MIDICore

/// A receiver's SysEx reassembly across segments and packets (RFC 6295 §3.2), bounded:
/// a SysEx over `maximumLength` bytes, one cancelled, one whose segments a loss broke,
/// or a segment with no start is dropped (and counted).
///
/// - Thread: any (a value).
struct SysExAssembly: Sendable {
    let maximumLength: Int
    private var state = State.idle
    private(set) var dropped = 0

    private enum State: Sendable {
        case idle
        case assembling([UInt8])
        /// The rest of a dropped SysEx: its segments up to the last are ignored.
        case discarding
    }

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// The message `command` completes: itself unless it is a SysEx segment, the whole
    /// SysEx for the last segment; nil for the other segments.
    mutating func take(_ command: RTPMIDICommand) -> MIDIMessage? {
        guard case .sysEx(let payload) = command.message else { return command.message }
        switch (command.sysExSegment, state) {
        case (.complete, _):
            abandon()
            state = .idle
            return command.message
        case (.first, _):
            abandon()
            state = .assembling([])
            append(payload)
        case (.middle, .assembling), (.last, .assembling):
            append(payload)
            guard command.sysExSegment == .last, case .assembling(let whole) = state else { return nil }
            state = .idle
            return .sysEx(whole)
        case (.middle, .idle), (.last, .idle):
            dropped += 1
            state = command.sysExSegment == .middle ? .discarding : .idle
        case (.middle, .discarding):
            break
        case (.last, .discarding), (.cancel, .discarding):
            state = .idle
        case (.cancel, _):
            abandon()
            state = .idle
        }
        return nil
    }

    /// The bytes held of the SysEx under way: never more than `maximumLength`.
    var bufferedLength: Int {
        guard case .assembling(let whole) = state else { return 0 }
        return whole.count
    }

    /// Drops the SysEx under way (a loss broke it): its remaining segments are ignored.
    mutating func abandon() {
        guard case .assembling = state else { return }
        dropped += 1
        state = .discarding
    }

    private mutating func append(_ payload: [UInt8]) {
        guard case .assembling(var whole) = state else { return }
        guard whole.count + payload.count <= maximumLength else {
            dropped += 1
            state = .discarding
            return
        }
        state = .idle  // releases the buffer before it grows
        whole += payload
        state = .assembling(whole)
    }
}
