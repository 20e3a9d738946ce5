/// How often a session host repeats what it repeats, and how long it waits for a peer.
/// The defaults are Apple's session's habits: an invitation every second, twelve times; a
/// clock sync every 1.5 s at first, then every 10 s. Feedback goes ten times a second while
/// packets come (Apple's sessions send it about once a second): the sender's journal covers
/// only what the peer has not confirmed, so it stays a tenth as long in a dense stream.
///
/// - Thread: any (a value).
public struct SessionTimings: Sendable {
    /// Between two invitations no one answered.
    public var invitationInterval: UInt64 = 1_000_000
    /// Invitations sent before the host waits `reinvitationDelay` and starts again.
    public var invitationAttempts = 12
    /// Between one round of invitations that went unanswered (or a lost session) and the next.
    public var reinvitationDelay: UInt64 = 10_000_000
    /// Between the first clock syncs of a session (`quickClockSyncs` of them).
    public var quickClockSyncInterval: UInt64 = 1_500_000
    /// How many syncs are sent at the quick interval.
    public var quickClockSyncs = 6
    /// Between the clock syncs after the first ones.
    public var clockSyncInterval: UInt64 = 10_000_000
    /// A peer heard from for no longer than this is gone: its session ends.
    public var silenceTimeout: UInt64 = 30_000_000
    /// Between two receiver feedbacks (sent only when packets came since the last).
    public var feedbackInterval: UInt64 = 100_000
    /// How long after its last packet, unconfirmed, a host sends the journal again alone.
    public var journalRefreshInterval: UInt64 = 1_500_000

    /// Apple's timings. All times are in microseconds of the host's monotonic clock.
    /// - Thread: any.
    public init() {}
}
