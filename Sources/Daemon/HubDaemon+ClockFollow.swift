import Control
import Hub
import MIDICore
import Sequencer
import Transport

/// MIDI clock in (docs/transport.md#midi-clock-in): the transport follows the clock that the
/// client of the external node with `clock: follow` sends. Start plays the song from the top,
/// Continue from the last Song Position, Stop stops where the master stopped; Song Position
/// moves the transport while stopped. While the master plays, each turn steers the song's
/// tempo toward the master's line (`SongPlayer.follow`), so the song keeps the master's
/// tempo and phase; the hub's tempo (the arpeggiator, tempo-synced effects) follows too.
extension HubDaemon {
    /// How often the song's tempo is steered toward the master (seconds).
    static let clockSteerInterval = 0.05
    /// A master further than this from the transport (quarter notes) is jumped to, not steered to.
    static let clockJump = 1.0

    /// The node whose clock the transport follows, if the graph has one.
    var clockLeader: GraphNode? {
        core.router.graph.nodes.first(where: \.leadsClock)
    }

    /// Takes a clock message from `address`, which arrived at `time` (monotonic), when it came
    /// from the leader's client (from one of its ports: `ClockFollower.receive(_:from:at:)`),
    /// and carries out what the master says.
    /// - Thread: owner.
    func followClock(_ message: MIDIMessage, from address: PortAddress, at time: Double) {
        guard Self.isClock(message), let leader = clockLeader, case .external(let external) = leader.body,
              let port = ports.sender(at: address), external.leadsClock(from: port) else { return }
        guard let cue = clockFollower.receive(message, from: address.client << 8 | address.port, at: time) else { return }
        follow(cue)
    }

    /// Notices a master that went silent; steers the song toward the master; keeps the hub's
    /// tempo at the master's.
    /// - Thread: owner, every turn of its loop (`serviceTransport`).
    func serviceClockFollow(now: Double, timing: TransportTiming) {
        guard clockLeader != nil else { return }
        let monotonic = now - timing.clockOffset
        if let cue = clockFollower.check(at: monotonic) { return follow(cue) }
        guard let tempo = clockFollower.beatsPerMinute else { return }
        if abs(tempo - core.router.clock.beatsPerMinute) >= 0.1, monotonic - lastClockTempoChange >= 0.5 {
            lastClockTempoChange = monotonic
            setTempo((tempo * 100).rounded() / 100)
        }
        guard player.state == .playing, let song = player.song, monotonic - lastClockSteer >= Self.clockSteerInterval,
              let pulse = clockFollower.masterPulse(at: monotonic) else { return }
        lastClockSteer = monotonic
        let ticksPerQuarter = Double(song.tempoMap.ticksPerQuarter)
        let masterTick = pulse * ticksPerQuarter / 24
        guard let behind = player.follow(masterTick: masterTick, at: now, beatsPerMinute: tempo) else { return }
        clockDrift = behind / ticksPerQuarter * 60 / tempo
        if abs(behind) > Self.clockJump * ticksPerQuarter {
            // A loop of the hub's, a seek, or a master that jumped: play on from where the master is.
            log.info("transport: \(clockDrift.map { String(format: "%.0f", $0 * 1000) } ?? "?") ms off the master's clock; going to where it is")
            follow(.play(pulse: Int(pulse.rounded(.up)), at: monotonic), jump: true)
        }
    }

    /// Carries out the master's word: play from a pulse, stop at one, or move to one.
    private func follow(_ cue: ClockFollower.Cue, jump: Bool = false) {
        guard let song = player.song else { return }
        let (now, timing) = transportTiming()
        let at = transportActionTime(now)
        lastTransportClock = now
        notePlayed(until: now)
        transportOnAudioClock = audio?.renderedSeconds != nil
        func tick(_ pulse: Int) -> UInt64 { UInt64(max(pulse, 0)) * UInt64(song.tempoMap.ticksPerQuarter) / 24 }
        switch cue {
        case .play(let pulse, _):
            if jump || player.state == .playing { dropScheduled() }
            carryOut(player.seek(to: tick(pulse), at: at), timing)
            carryOut(player.play(at: at) ?? [], timing)
            lastClockSteer = -.infinity
        case .stop(let pulse, let timedOut):
            dropScheduled()
            carryOut(player.pause(at: at), timing)
            carryOut(player.seek(to: tick(pulse), at: at), timing)
            if timedOut {
                log.warning("transport: the clock of '\(clockLeader?.id ?? "")' stopped coming; stopped (fix: check the master's cable and its clock output)")
            }
        case .locate(let pulse):
            guard player.state != .playing else { return }
            carryOut(player.seek(to: tick(pulse), at: at), timing)
        }
        showTriggerStates()
        publishTransport()
    }

    /// Refuses a transport action while the master plays: it decides where the song is.
    /// - Throws: `ControlError.followingClock`.
    func refuseWhileFollowing(_ action: TransportRequest.Action) throws(ControlError) {
        guard let leader = clockLeader, clockFollower.running else { return }
        throw ControlError(.followingClock, "the transport follows the clock of '\(leader.id)', which plays: it decides \(action.rawValue)",
                           fix: "stop or start it on the master, or remove `clock: follow` from node '\(leader.id)'")
    }

    /// What the status shows of the clock the transport follows.
    func clockFollowStatus() -> TransportStatus.ClockFollow? {
        guard let leader = clockLeader else { return nil }
        let tempo = clockFollower.beatsPerMinute
        func rounded(_ value: Double?) -> Double? { value.map { ($0 * 1000).rounded() / 1000 } }
        return .init(node: leader.id, running: clockFollower.running, tempo: rounded(tempo),
                     jitter: tempo == nil ? nil : rounded(clockFollower.jitter * 1000),
                     drift: clockFollower.running ? rounded(clockDrift.map { $0 * 1000 }) : nil)
    }
}
