/// What the clock sync and the packets' timestamps tell of a peer's clock: how far it is
/// from this host's, so that a packet's RTP timestamp (the sender's clock, 10 kHz) becomes a
/// moment of this host's clock, and how much the packets' transit varies.
///
/// - Thread: any (a value inside a session).
struct PeerClock {
    /// The peer's clock minus this host's, in microseconds; nil before the first sync.
    private(set) var offset: Int64?
    /// The interarrival jitter (RFC 3550 §6.4.1), microseconds.
    private(set) var jitter: Double = 0
    private var lastTransit: Int64?

    /// A clock sync this host started: the peer read its clock at `peer` between this host's
    /// `sent` and `returned` (the sync's 100 µs units); the peer's reading is taken to be halfway.
    /// The stamps come off the wire, so the arithmetic wraps rather than traps on absurd ones.
    mutating func synced(sent: UInt64, peer: UInt64, returned: UInt64) {
        offset = Self.micro(peer) &- Self.halfway(Self.micro(sent), Self.micro(returned))
    }

    /// A clock sync the peer started: this host read its clock at `own` between the peer's
    /// `peerSent` and `peerReturned`.
    mutating func synced(peerSent: UInt64, own: UInt64, peerReturned: UInt64) {
        offset = Self.halfway(Self.micro(peerSent), Self.micro(peerReturned)) &- Self.micro(own)
    }

    private static func micro(_ stamp: UInt64) -> Int64 { Int64(truncatingIfNeeded: stamp) &* 100 }

    /// The moment halfway between `a` and `b`, whatever their size.
    private static func halfway(_ a: Int64, _ b: Int64) -> Int64 { a / 2 &+ b / 2 &+ (a % 2 &+ b % 2) / 2 }

    /// This host's moment (µs) of the peer's RTP timestamp `timestamp`, which wraps every
    /// 2³² ticks: taken as the one nearest the peer's clock now. Nil before the first sync.
    func localTime(ofRTP timestamp: UInt32, now: UInt64) -> UInt64? {
        guard let offset else { return nil }
        let peerNow = (Int64(truncatingIfNeeded: now) &+ offset) / 100
        let difference = Int64(Int32(bitPattern: timestamp &- UInt32(truncatingIfNeeded: peerNow)))
        return UInt64(clamping: (peerNow &+ difference) &* 100 &- offset)
    }

    /// A packet stamped `timestamp` arrived `now`: the jitter follows how its transit
    /// differs from the last packet's.
    mutating func arrived(timestamp: UInt32, now: UInt64) {
        guard let sent = localTime(ofRTP: timestamp, now: now) else { return }
        let transit = Int64(truncatingIfNeeded: now) &- Int64(truncatingIfNeeded: sent)
        if let lastTransit { jitter += (Double((transit &- lastTransit).magnitude) - jitter) / 16 }
        lastTransit = transit
    }
}
