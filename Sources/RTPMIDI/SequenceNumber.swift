/// RTP sequence numbers compared modulo 2^16 (RFC 3550): `b` is after `a` when it is
/// less than half the number space ahead.
/// - Thread: any (pure).
enum SequenceNumber {
    /// How far `later` is ahead of `earlier`: negative when it is behind.
    ///
    /// - Thread: any.
    static func distance(from earlier: UInt16, to later: UInt16) -> Int {
        Int(Int16(bitPattern: later &- earlier))
    }
}
