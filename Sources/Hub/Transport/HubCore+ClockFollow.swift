import MIDICore
import Transport

/// MIDI clock in (docs/transport.md#midi-clock-in): the transport follows the clock that the
/// client of the external node with `clock: follow` sends. Start plays the song from the top,
/// Continue from the last Song Position, Stop stops where the master stopped; Song Position
/// moves the transport while stopped. While the master plays, each turn steers the song's
/// tempo toward the master's line (`SongPlayer.follow`), so the song keeps the master's
/// tempo and phase; the hub's tempo (the arpeggiator, tempo-synced effects) follows too.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// How often the song's tempo is steered toward the master.
    static let clockSteerInterval: HostDuration = 0.05
    /// A master further than this from the transport (quarter notes) is jumped to, not steered to.
    static let clockJump = 1.0

    /// The node whose clock the transport follows, if the graph has one.
    /// - Thread: owner.
    var clockLeader: GraphNode? {
        router.graph.nodes.first(where: \.leadsClock)
    }

    /// Takes a clock message (`isClock`) from the port at `address`, which arrived at `time` (monotonic),
    /// when it came from the leader's client; what the master says is done at the turn's tick,
    /// on the transport's clock (`takeMasterCues`).
    mutating func followClock(_ message: MIDIMessage, from address: PortAddress, at time: HostTime) {
        guard let leader = clockLeader, case .external(let external) = leader.body,
              let port = port(at: address), external.leadsClock(from: port) else { return }
        guard let cue = transport.clockFollower.receive(message, from: address.client << 8 | address.port, at: time) else { return }
        transport.masterCues.append(cue)
    }

    /// Does what the master said since the last tick (`followClock`), on `clock`.
    mutating func takeMasterCues(clock: TransportClock) -> [HubEffect] {
        guard !transport.masterCues.isEmpty else { return [] }
        let cues = transport.masterCues
        transport.masterCues.removeAll(keepingCapacity: true)
        transport.clock = clock
        return cues.flatMap { follow($0, jump: false, clock: clock) }
    }

    /// Notices a master that went silent; steers the song toward the master; keeps the hub's
    /// tempo at the master's.
    mutating func serviceClockFollow(_ clock: TransportClock) -> [HubEffect] {
        guard clockLeader != nil else { return [] }
        let monotonic = clock.monotonic(clock.now)
        if let cue = transport.clockFollower.check(at: monotonic) { return follow(cue, jump: false, clock: clock) }
        guard let tempo = transport.clockFollower.beatsPerMinute else { return [] }
        var effects: [HubEffect] = []
        if abs(tempo - router.clock.beatsPerMinute) >= 0.1, monotonic - transport.lastClockTempoChange >= 0.5 {
            transport.lastClockTempoChange = monotonic
            effects += setTempo((tempo * 100).rounded() / 100, at: monotonic)
        }
        guard transport.player.state == .playing, let song = transport.player.song,
              monotonic - transport.lastClockSteer >= Self.clockSteerInterval,
              let pulse = transport.clockFollower.masterPulse(at: monotonic) else { return effects }
        transport.lastClockSteer = monotonic
        let ticksPerQuarter = Double(song.tempoMap.ticksPerQuarter)
        let masterTick = pulse * ticksPerQuarter / 24
        guard let behind = transport.player.follow(masterTick: masterTick, at: clock.now, beatsPerMinute: tempo) else { return effects }
        let drift = behind / ticksPerQuarter * 60 / tempo
        transport.clockDrift = drift
        if abs(behind) > Self.clockJump * ticksPerQuarter {
            // A loop of the hub's, a seek, or a master that jumped: play on from where the master is.
            effects.append(.log("transport: \(Int((drift * 1000).rounded())) ms off the master's clock; going to where it is"))
            effects += follow(.play(pulse: Int(pulse.rounded(.up)), at: monotonic), jump: true, clock: clock)
        }
        return effects
    }

    /// Carries out the master's word: play from a pulse, stop at one, or move to one.
    mutating func follow(_ cue: ClockFollower.Cue, jump: Bool, clock: TransportClock) -> [HubEffect] {
        guard let song = transport.player.song else { return [] }
        func tick(_ pulse: Int) -> Tick { Tick(UInt64(max(pulse, 0)) &* UInt64(song.tempoMap.ticksPerQuarter), over: 24) }
        switch cue {
        case .play(let pulse, _):
            defer { transport.lastClockSteer = .distantPast }
            return followMaster(.play(from: tick(pulse), dropFirst: jump || transport.player.state == .playing), clock: clock)
        case .stop(let pulse, let timedOut):
            let warning = HubEffect.warning("transport: the clock of '\(clockLeader?.id ?? "")' stopped coming; stopped "
                + "(fix: check the master's cable and its clock output)")
            return followMaster(.stop(at: tick(pulse)), clock: clock, warning: timedOut ? warning : nil)
        case .locate(let pulse):
            return followMaster(.locate(tick(pulse)), clock: clock)
        }
    }

    /// What a master (a MIDI clock, JACK's transport) tells the song to do.
    enum MasterMove {
        /// Play from the tick (what was handed out and not played dropped first when `dropFirst`).
        case play(from: Tick, dropFirst: Bool)
        /// Stop there, where playing resumes.
        case stop(at: Tick)
        /// Move there while stopped (nothing while playing).
        case locate(Tick)
    }

    /// Does what a master says on `clock`, with `warning` said after it.
    mutating func followMaster(_ move: MasterMove, clock: TransportClock, warning: HubEffect? = nil) -> [HubEffect] {
        if case .locate = move, transport.player.state == .playing { return [] }
        let at = clock.actionTime
        transport.lastClock = clock.now
        notePlayed(until: clock.now, clock: clock)
        transport.onAudioClock = clock.onAudio
        var effects: [HubEffect] = []
        switch move {
        case .play(let tick, let dropFirst):
            if dropFirst { effects.append(dropScheduled()) }
            effects += scheduled(transport.player.seek(to: tick, at: at), clock: clock)
            effects += scheduled(transport.player.play(at: at) ?? [], clock: clock)
        case .stop(let tick):
            effects.append(dropScheduled())
            effects += scheduled(transport.player.pause(at: at), clock: clock)
            effects += scheduled(transport.player.seek(to: tick, at: at), clock: clock)
        case .locate(let tick):
            effects += scheduled(transport.player.seek(to: tick, at: at), clock: clock)
        }
        if let warning { effects.append(warning) }
        refreshTriggerLights(at: clock.monotonic(clock.now))
        return effects + [.transportChanged]
    }

    /// Refuses a transport action while the master plays: it decides where the song is.
    func refuseWhileFollowing(_ action: String) throws(HubRefusal) {
        guard let leader = clockLeader, transport.clockFollower.running else { return }
        throw HubRefusal(.followingClock, "the transport follows the clock of '\(leader.id)', which plays: it decides \(action)",
                         fix: "stop or start it on the master, or remove `clock: follow` from node '\(leader.id)'")
    }
}
