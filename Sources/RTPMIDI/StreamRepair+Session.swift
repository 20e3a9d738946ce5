import MIDICore

extension StreamRepair {
    /// The newest packet received in order (what receiver feedback confirms), or nil before the first.
    /// - Thread: any (a value).
    public var lastSequenceNumber: UInt16? { expected.map { $0 &- 1 } }

    /// Note-offs for every note this side has sounding from the stream: what a session's
    /// end owes the port its peer played into.
    /// - Thread: any (a value).
    public func releaseMessages() -> [MIDIMessage] {
        (0..<16).flatMap { channel in
            soundingNotes(channel: UInt8(channel)).notes.map { .noteOff(channel: UInt8(channel), note: $0, velocity: 0) }
        }
    }
}
