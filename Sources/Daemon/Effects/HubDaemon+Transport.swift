import ALSA
import Control
import Hub
import MIDICore
import Transport

/// The transport in the hub (docs/transport.md): the core decides what the song plays and
/// when (`HubCore+Transport`); the daemon reads the clocks for it and carries its events out.
///
/// Each turn of the owner's loop hands out what is due within `HubCore.transportLookahead`:
/// unit nodes get each event at its exact frame (the clock is frames rendered), ALSA ports
/// through the transport's queue at its real time (delayed by the sound card's buffer, so both
/// are heard together), JACK ports when due. A pause, stop, seek or loop drops what was handed
/// out and not played (`dropScheduled`).
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// The transport's clock at `monotonic` (the audio rendered, or the monotonic clock
    /// without audio) for the core, and its offsets to the monotonic clock and the queue for
    /// carrying the events out. Reads the queue (one `ioctl`, with the clocks read again
    /// beside it) at most every `queueReadInterval`, so its offset (`ClockOffsetFilter`) is
    /// steady when a song starts and a busy turn does not pay for it.
    /// - Thread: owner.
    func transportClock(monotonic: HostTime = .now()) -> (clock: TransportClock, timing: TransportTiming) {
        let rendered = audio?.renderedTime
        let now = rendered ?? TransportTime(withoutAudio: monotonic)
        if monotonic - lastQueueReading >= Self.queueReadInterval, let queueTime = try? client.status(of: transportQueue).time {
            let monotonic = HostTime.now()
            lastQueueReading = monotonic
            _ = queueClockOffset.add(queueTime.ahead(of: audio?.renderedTime ?? TransportTime(withoutAudio: monotonic)))
            _ = queueAheadOfMonotonic.add(queueTime.ahead(of: monotonic))
        }
        // The one place the transport's clock and the monotonic clock meet: read together.
        let offset = now.sinceOrigin - monotonic.sinceOrigin
        let queueAhead = (queueClockOffset.value ?? .zero) + offset + (audio?.outputDelay ?? .zero)
        let clock = TransportClock(now: now, offset: offset, actionDelay: (audio?.blockLength ?? .zero) + Self.actionMargin,
                                   outputDelay: audio?.outputDelay ?? .zero, onAudio: rendered != nil)
        return (clock, TransportTiming(clock: clock, queue: transportQueue, queueAhead: queueAhead))
    }

    /// How long handing an action's first events to ALSA may take (a Start and the first
    /// clock pulse scheduled 5 ms ahead left up to 15 ms late under load, off the line of the
    /// pulses after them).
    static let actionMargin: HostDuration = 0.02

    /// How often, at most, the queue's real time is read for its offsets: as often as an idle
    /// owner's poll returns.
    static let queueReadInterval: HostDuration = 0.01

    /// Carries the transport's messages out (`HubEffect.schedule`): from `midihub:sequence`
    /// through the core's graph with their times; its clock (pulses, Start, Stop, Continue,
    /// Song Position) to the external nodes marked `clock: true`, each moved by its offset.
    func play(_ scheduled: [SongPlayer.Scheduled], _ timing: TransportTiming) {
        // Read (through a snapshot) only for a batch with clock in it.
        let followers = scheduled.contains { HubCore.isClock($0.message) } ? core.snapshot.clockFollowers : []
        var sink = makeSink()
        sink.transport = timing
        var effects: [HubEffect] = []
        for event in scheduled {
            let time = timing.clock.monotonic(event.time)
            if HubCore.isClock(event.message) {
                for follower in followers { sink.deliverClock(event.message, at: time + follower.offset, toNodeAt: follower.index) }
            } else {
                try? core.handle(.sequenced(event.message, at: time), into: &sink, effects: &effects)
            }
        }
        flush(sink)
        heldForJack += sink.jackLater
    }

    /// Sends the transport's JACK messages that are due.
    func sendDueJackMessages(now: HostTime) {
        guard !heldForJack.isEmpty else { return }
        let jack = jack
        heldForJack.removeAll { held in
            guard held.time <= now else { return false }
            jack.send(held.message, to: held.port)
            return true
        }
    }

    /// Drops what was handed out and has not played: the frames queued for the render thread,
    /// the events waiting in the ALSA queue, the JACK messages held.
    func dropScheduled() {
        audio?.cutSchedule()
        do {
            try client.removePendingOutput()
        } catch {
            log.warning("transport: could not drop the queued events: \(error)")
        }
        heldForJack.removeAll()
    }

    /// Loads `songs` as the playlist (a `load` is a playlist of one), stopped at the first's start.
    /// - Thread: owner.
    func loadPlaylist(_ songs: [Song]) -> TransportStatus {
        runTransport(.load(songs))
        return transportStatus()
    }

    /// Carries out a `transport` request other than `load` and `playlist`.
    /// - Throws: `ControlError` when no song is loaded, or for a position the song does not have.
    /// - Thread: owner.
    func transport(_ request: TransportRequest) throws(ControlError) -> TransportStatus {
        let input: TransportInput
        switch request.action {
        case .status, .load, .playlist: return transportStatus()
        case .play: input = .play
        case .pause: input = .pause
        case .stop: input = .stop
        case .seek: input = .seek(request.position)
        case .loop: input = .loop(from: request.from, to: request.to)
        case .tempo: input = .tempo(request.bpm)
        case .next: input = .next
        case .previous: input = .previous
        case .repeat: input = .repeatMode(request.mode)
        case .record: input = .record(countIn: request.bars ?? 1, stamp: stampIfRecording())
        }
        try moveTransport(input)
        return transportStatus()
    }

    /// Where the transport stands now.
    func transportStatus() -> TransportStatus {
        let transport = core.snapshot.transport
        let player = transport.player
        let now = audio?.renderedTime ?? TransportTime(withoutAudio: .now())
        let tick = player.position(at: now)
        let song = player.song
        func barBeat(_ tick: Tick) -> String {
            guard let song else { return "1:1" }
            let position = song.tempoMap.barBeat(atTick: tick)
            return "\(position.bar):\(position.beat)"
        }
        return TransportStatus(state: player.state.rawValue, song: song?.name, position: barBeat(tick),
                               seconds: Self.rounded(player.duration(atTick: tick).seconds),
                               duration: Self.rounded(song.map { player.duration(atTick: $0.endTick).seconds } ?? 0),
                               tempo: Self.rounded(player.tempo(atTick: tick)), tempoOverride: player.tempoOverride != nil,
                               loop: player.loop.map { .init(from: barBeat($0.start), to: barBeat($0.end)) },
                               clock: clockFollowStatus(), playlist: playlistPlace(),
                               recording: transport.isRecording ? true : nil)
    }

    /// Publishes the status (`transport-changed`) and returns it.
    @discardableResult
    func publishTransport() -> TransportStatus {
        let status = transportStatus()
        log.publish(.transportChanged(status))
        return status
    }

    /// What the status shows of the clock the transport follows.
    private func clockFollowStatus() -> TransportStatus.ClockFollow? {
        guard let leader = core.snapshot.clockLeader else { return nil }
        let follower = core.snapshot.transport.clockFollower
        let tempo = follower.beatsPerMinute
        return .init(node: leader.id, running: follower.running, tempo: tempo.map(Self.rounded),
                     jitter: tempo == nil ? nil : Self.rounded(follower.jitter * 1000),
                     drift: follower.running ? core.snapshot.transport.clockDrift.map { Self.rounded($0 * 1000) } : nil)
    }

    /// The status's playlist place: with more than one song, or a repeat mode.
    private func playlistPlace() -> TransportStatus.PlaylistPlace? {
        let playlist = core.snapshot.transport.playlist
        guard playlist.songs.count > 1 || playlist.repeatMode != .off else { return nil }
        return .init(song: playlist.index + 1, count: playlist.songs.count, repeat: playlist.repeatMode.rawValue)
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
