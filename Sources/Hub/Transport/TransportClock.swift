import MIDICore
/// The transport's clock as the shell read it for one input (`HubInput.transport`, the turn's
/// `.tick`): the core has no clock of its own.
///
/// - Thread: any (a plain value).
public struct TransportClock: Sendable, Equatable {
    /// The transport's clock now: the audio rendered, or the monotonic clock without audio.
    public var now: TransportTime
    /// The transport's clock minus the monotonic clock.
    public var offset: HostDuration
    /// How long after `now` an action takes effect: the block the render thread may be
    /// rendering already, and the time it takes to hand the first events to the kernel.
    public var actionDelay: HostDuration
    /// How long after the clock the sound card plays (0 without audio).
    public var outputDelay: HostDuration
    /// Whether `now` is frames rendered (else the monotonic clock).
    public var onAudio: Bool

    /// - Thread: any.
    public init(now: TransportTime, offset: HostDuration = .zero, actionDelay: HostDuration = .zero, outputDelay: HostDuration = .zero, onAudio: Bool = false) {
        self.now = now
        self.offset = offset
        self.actionDelay = actionDelay
        self.outputDelay = outputDelay
        self.onAudio = onAudio
    }

    /// When an action taken now takes effect, on the transport's clock.
    /// - Thread: any.
    public var actionTime: TransportTime { now + actionDelay }

    /// `time` (the transport's clock) on the monotonic clock.
    /// - Thread: any.
    public func monotonic(_ time: TransportTime) -> HostTime { HostTime.zero + (time.sinceOrigin - offset) }

    /// `time` (the monotonic clock) on the transport's clock.
    /// - Thread: any.
    public func transportTime(_ time: HostTime) -> TransportTime { TransportTime(sinceOrigin: time.sinceOrigin + offset) }
}
