/// A moment on the transport's clock: while audio plays, the audio rendered (the sound card's
/// frames as time since the first, `TimeBase` the one place frames become time), so that a
/// song's events land on their frames; without audio, the monotonic clock. Songs play, loop
/// and seek on it (`SongPlayer`); it meets the monotonic clock only through the offset the
/// shell reads with it (`TransportClock.monotonic(_:)`, `TransportClock.transportTime(_:)`).
/// A literal is seconds.
///
/// - Thread: any (a plain value).
public struct TransportTime: ClockMoment {
    public var sinceOrigin: HostDuration

    /// - Thread: any.
    @inlinable
    public init(sinceOrigin: HostDuration) {
        self.sinceOrigin = sinceOrigin
    }

    /// The transport's clock while no audio plays: the monotonic clock's reading `monotonic`.
    /// - Thread: any.
    @inlinable
    public init(withoutAudio monotonic: HostTime) {
        sinceOrigin = monotonic.sinceOrigin
    }
}

extension TransportTime: ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// A literal is seconds.
    /// - Thread: any.
    public init(floatLiteral seconds: Double) { self.init(sinceOrigin: HostDuration(seconds: seconds)) }

    /// A literal is seconds.
    /// - Thread: any.
    public init(integerLiteral seconds: Int64) { self.init(sinceOrigin: HostDuration(nanoseconds: seconds * 1_000_000_000)) }

    /// Seconds, as a literal writes them.
    public var description: String { "\(seconds) s" }
}
