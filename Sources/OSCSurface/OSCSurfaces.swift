import OSC

/// The surfaces that are sent the hub's changes (a surface that sends registers itself;
/// `/register`, `/unregister` say so explicitly; at most `maximumCount`), and what each was sent: at most
/// `maximumRate` messages a second per address — a change that comes sooner waits, replaced
/// by any later one, so the last value is always sent — and never a surface's own move back
/// to it.
///
/// - Thread: control (the OSC server's thread; a plain value it owns).
struct OSCSurfaces {
    /// Messages per second per address and surface, at most.
    static let maximumRate = 30.0
    /// How long a surface's own move is kept, to recognise its echo.
    static let echoWindow = 1.0

    private struct Surface {
        /// Where its changes go: the port it sends from, or the one it registered.
        var destination: OSCPeer
        var lastSent: [String: Double] = [:]
        var waiting: [String: OSCMessage] = [:]
        /// The values it set itself, by address, and when.
        var ownMoves: [String: (value: Double, time: Double)] = [:]
    }

    /// By the address they send from.
    private var surfaces: [OSCPeer: Surface] = [:]
    /// The most surfaces kept: a new one beyond it takes the place of the one heard from
    /// longest ago (a program that sent once and quit, or a sender trying addresses), so the
    /// table and the changes sent stay bounded whoever sends.
    static let maximumCount = 64
    /// When each surface last sent something.
    private var lastHeard: [OSCPeer: Double] = [:]

    var count: Int { surfaces.count }

    /// Registers the surface that sends from `peer` (changes go back there, or to `port` of
    /// its host). Registering again only moves where its changes go.
    mutating func register(_ peer: OSCPeer, port: UInt16? = nil, at now: Double) {
        let destination = port.map { peer.udpPort($0) } ?? peer
        lastHeard[peer] = now
        if surfaces[peer] == nil {
            if surfaces.count >= Self.maximumCount, let oldest = lastHeard.filter({ $0.key != peer }).min(by: { $0.value < $1.value })?.key {
                unregister(oldest)
            }
            surfaces[peer] = Surface(destination: destination)
        } else if port != nil {
            surfaces[peer]?.destination = destination
        }
    }

    /// Whether `peer` is registered.
    func contains(_ peer: OSCPeer) -> Bool { surfaces[peer] != nil }

    mutating func unregister(_ peer: OSCPeer) {
        surfaces[peer] = nil
        lastHeard[peer] = nil
    }

    /// Where every surface's changes go (for what is not coalesced: MIDI).
    var destinations: [OSCPeer] { surfaces.values.map(\.destination) }

    /// Where `peer`'s changes go.
    func destination(of peer: OSCPeer) -> OSCPeer { surfaces[peer]?.destination ?? peer }

    /// `peer` set `messages`' values itself (the feedback its move will cause): they are not
    /// sent back to it.
    mutating func noteOwnMoves(_ messages: [OSCMessage], by peer: OSCPeer, at now: Double) {
        for message in messages {
            guard let value = message.arguments.first?.number else { continue }
            surfaces[peer]?.ownMoves[message.address] = (value, now)
        }
    }

    /// Hands `messages` (one change's) to every surface: returns those to send now; the
    /// others wait for their address's turn (`due`).
    mutating func offer(_ messages: [OSCMessage], at now: Double) -> [(OSCMessage, OSCPeer)] {
        var sendNow: [(OSCMessage, OSCPeer)] = []
        for peer in surfaces.keys {
            for message in messages where !isEcho(message, to: peer, at: now) {
                if now - (surfaces[peer]?.lastSent[message.address] ?? -.infinity) >= 1 / Self.maximumRate {
                    surfaces[peer]?.lastSent[message.address] = now
                    surfaces[peer]?.waiting[message.address] = nil
                    sendNow.append((message, surfaces[peer]!.destination))
                } else {
                    surfaces[peer]?.waiting[message.address] = message
                }
            }
        }
        return sendNow
    }

    /// The waiting messages whose turn has come.
    mutating func due(at now: Double) -> [(OSCMessage, OSCPeer)] {
        var sendNow: [(OSCMessage, OSCPeer)] = []
        for (peer, surface) in surfaces {
            for (address, message) in surface.waiting
            where now - (surface.lastSent[address] ?? -.infinity) >= 1 / Self.maximumRate {
                surfaces[peer]?.lastSent[address] = now
                surfaces[peer]?.waiting[address] = nil
                sendNow.append((message, surface.destination))
            }
        }
        return sendNow
    }

    /// When the next waiting message is due, if one waits.
    var nextDue: Double? {
        var next: Double?
        for surface in surfaces.values {
            for address in surface.waiting.keys {
                let due = (surface.lastSent[address] ?? 0) + 1 / Self.maximumRate
                next = min(next ?? due, due)
            }
        }
        return next
    }

    /// Whether `message` only repeats a value `peer` set itself a moment ago (the mark is
    /// used up: a later change of the same value is sent).
    private mutating func isEcho(_ message: OSCMessage, to peer: OSCPeer, at now: Double) -> Bool {
        guard let own = surfaces[peer]?.ownMoves[message.address], let value = message.arguments.first?.number else {
            return false
        }
        surfaces[peer]?.ownMoves[message.address] = nil
        return now - own.time <= Self.echoWindow && abs(value - own.value) <= 1e-6 * max(1, abs(own.value))
    }
}
