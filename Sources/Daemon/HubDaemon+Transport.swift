import ALSA
import Control
import Hub
import MIDICore
import Sequencer
import Transport

/// The transport in the hub (docs/transport.md): a loaded sequence plays through the graph as
/// the source port `midihub:sequence`, routed like any input (through processors, to
/// instruments and external nodes).
///
/// Each turn of the owner's loop hands out what is due within `transportLookahead`: unit
/// nodes get each event at its exact frame (the clock is frames rendered), ALSA ports through
/// the transport's queue at its real time (delayed by the sound card's buffer, so both are
/// heard together), JACK ports when due. A pause, stop, seek or loop drops what was handed out
/// and not played, then ends the notes the sequence held.
extension HubDaemon {
    /// How far ahead of the clock events are handed out.
    static let transportLookahead = 0.1

    /// The pseudo-port the sequence plays from: `midihub:sequence` (a source selector matches it).
    var sequencePort: PortDescriptor {
        PortDescriptor(address: PortAddress(client: Int(client.clientID), port: -1), clientName: options.clientName,
                       portName: "sequence", portClass: .app, direction: .output)
    }

    /// The transport's clock now (seconds of audio rendered, or the monotonic clock without
    /// audio) and its offsets to the monotonic clock and the queue.
    func transportTiming() -> (now: Double, timing: TransportTiming) {
        let monotonic = Self.now()
        let clock = audio?.renderedSeconds ?? monotonic
        if let seconds = try? client.status(of: transportQueue).seconds { _ = queueClockOffset.add(seconds - clock) }
        let queueOffset = (queueClockOffset.value ?? 0) + (clock - monotonic) + (audio?.outputDelay ?? 0)
        return (clock, TransportTiming(clockOffset: clock - monotonic, queue: transportQueue, queueOffset: queueOffset))
    }

    /// When an action taken now takes effect on the transport's clock: after the block the
    /// render thread may be rendering already, and after the time it takes to hand the
    /// action's first events to the kernel's queue (a Start and the first clock pulse
    /// scheduled 5 ms ahead left up to 15 ms late under load, off the line of the pulses after them).
    func transportActionTime(_ now: Double) -> Double {
        now + (audio?.blockSeconds ?? 0) + Self.actionMargin
    }

    /// How long handing an action's first events to ALSA may take.
    static let actionMargin = 0.02

    /// Hands out what is due; notices the song's end and a change of clock (audio started or
    /// stopped while playing: the song goes on from where it was on the new clock). Reads the
    /// clocks every turn, so their offset (`ClockOffsetFilter`) is steady when a song starts.
    /// - Thread: owner, every turn of its loop.
    func serviceTransport() {
        sendDueJackMessages()
        // Read every turn, playing or not, so the queue's offset is steady when playing starts.
        let (now, timing) = transportTiming()
        serviceClockFollow(now: now, timing: timing)
        guard player.state == .playing else { return }
        let onAudio = audio?.renderedSeconds != nil
        if onAudio != transportOnAudioClock {
            // The old clock's schedule is dropped and its notes ended now, on the new clock;
            // the song goes on from where the old clock had it.
            transportOnAudioClock = onAudio
            dropScheduled()
            let at = transportActionTime(now)
            let offs = player.pause(at: lastTransportClock).map { SongPlayer.Scheduled(time: at, message: $0.message) }
            _ = player.takeTimeline()  // stamped on the old clock
            carryOut(offs, timing)
            carryOut(player.play(at: at) ?? [], timing)
        }
        lastTransportClock = now
        notePlayed(until: now)
        let endings = player.endings
        carryOut(player.due(until: now + Self.transportLookahead), timing)
        if player.endings != endings {
            log.info("transport: '\(player.song?.name ?? "")' ended")
            playOnAfterEnd(timing, now: now)
            publishTransport()
        }
    }

    /// Tells the player what has surely played by `now`: ALSA ports hear events the sound
    /// card's delay after the clock, and the kernel queue's time may trail the monotonic
    /// clock by a stall of the machine — a cut repeats the note-offs of that margin too
    /// (a repeated note-off is harmless; one the queue dropped unplayed hangs a note).
    func notePlayed(until now: Double) {
        player.played(until: now - (audio?.outputDelay ?? 0) - Self.queueLagMargin)
    }

    /// How far the ALSA queue's time may trail the clock: seen in the VM under load.
    static let queueLagMargin = 0.1

    /// Routes the transport's messages from `midihub:sequence` with their times; its clock
    /// (pulses, Start, Stop, Continue, Song Position) goes to the external nodes marked
    /// `clock: true`, each moved by its offset.
    func carryOut(_ scheduled: [SongPlayer.Scheduled], _ timing: TransportTiming) {
        forwardTimeline(timing)
        guard !scheduled.isEmpty else { return }
        if sequenceSender.map({ !core.router.isCurrent($0) }) ?? true { sequenceSender = core.router.sender(for: sequencePort) }
        let followers = clockFollowers()
        var sink = makeSink()
        sink.transport = timing
        for event in scheduled {
            let time = event.time - timing.clockOffset
            if Self.isClock(event.message) {
                for follower in followers { sink.deliverClock(event.message, at: time + follower.offset, toNodeAt: follower.index) }
            } else if let sender = sequenceSender, sender.feedsGraph {
                core.router.route(event.message, from: sender, time: time, into: &sink)
            }
        }
        flush(sink)
        heldForJack += sink.jackLater
    }

    /// Hands the song's timeline (tempo, beat, bar, playing or not) to the render thread,
    /// for the nodes' `HostSync`, and to the generating processors (`followSongClock`).
    private func forwardTimeline(_ timing: TransportTiming) {
        let points = player.takeTimeline()
        for point in points {
            let time = point.time - timing.clockOffset
            let host = point.host
            songClocks.append((time, host.transport == .playing
                ? TempoClock(beatsPerMinute: host.tempo, originSeconds: time - host.beat * 60 / host.tempo) : nil))
        }
        guard let audio, audio.renderedSeconds != nil else { return }
        for point in points { audio.scheduleTimeline(point.host, at: point.time) }
    }

    /// Hands the generating processors (the arpeggiator) the song's beats from each timeline
    /// point that is due: they play on the song's grid while it plays, on the hub's after.
    /// - Thread: owner, before the processors generate.
    func followSongClock(until now: Double) {
        while let first = songClocks.first, first.time <= now {
            songClocks.removeFirst()
            core.router.followSong(first.clock, at: first.time)
        }
    }

    /// The external nodes that follow the transport's clock: their index in the graph and
    /// their offset in seconds.
    private func clockFollowers() -> [(index: Int, offset: Double)] {
        core.router.graph.nodes.enumerated().compactMap { index, node in
            guard case .external(let external) = node.body, external.clock == .send else { return nil }
            return (index, external.clockOffset / 1000)
        }
    }

    static func isClock(_ message: MIDIMessage) -> Bool {
        switch message {
        case .clock, .start, .continue, .stop, .songPosition: true
        default: false
        }
    }

    /// Sends the transport's JACK messages that are due.
    private func sendDueJackMessages() {
        guard !heldForJack.isEmpty else { return }
        let now = Self.now()
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
        songClocks.removeAll()
        do {
            try client.removePendingOutput()
        } catch {
            log.warning("transport: could not drop the queued events: \(error)")
        }
        heldForJack.removeAll()
    }

    /// Loads `song` into the transport (stopped at its start), ending what the last one
    /// played; the playlist becomes that song alone.
    /// - Thread: owner.
    func loadSong(_ song: Song) -> TransportStatus {
        loadPlaylist([song])
    }

    /// Loads `song` (the playlist's) into the transport, stopped at its start.
    /// - Thread: owner.
    func installSong(_ song: Song) -> TransportStatus {
        let (now, timing) = transportTiming()
        notePlayed(until: now)
        dropScheduled()
        carryOut(player.load(song, at: transportActionTime(now)), timing)
        log.info("transport: loaded '\(song.name)'")
        if !core.router.sender(for: sequencePort).feedsGraph, clockFollowers().isEmpty {
            log.warning("transport: no source node takes midihub:sequence, so the song plays nowhere "
                + "(fix: add a node such as `song: { source: \"midihub:sequence\" }` and a route from it, docs/transport.md)")
        }
        return publishTransport()
    }

    /// Carries out a `transport` request other than `load`.
    /// - Throws: `ControlError` when no song is loaded, or for a position the song does not have.
    /// - Thread: owner.
    func transport(_ request: TransportRequest) throws(ControlError) -> TransportStatus {
        guard request.action != .status else { return transportStatus() }
        if ![.loop, .repeat, .record].contains(request.action) { try refuseWhileFollowing(request.action) }
        guard let song = player.song else {
            throw ControlError(.noSequence, "the transport has no sequence", fix: "load one: 'midihub transport load FILE'")
        }
        let (now, timing) = transportTiming()
        let at = transportActionTime(now)
        lastTransportClock = now
        notePlayed(until: now)
        transportOnAudioClock = audio?.renderedSeconds != nil
        switch request.action {
        case .status, .load, .playlist:
            return transportStatus()
        case .next, .previous, .repeat:
            try playlistAction(request)
        case .record:
            try recordWithCountIn(bars: request.bars ?? 1, now: now, timing: timing)
        case .play:
            carryOut(player.play(at: at) ?? [], timing)
        case .pause:
            dropScheduled()
            carryOut(player.pause(at: at), timing)
        case .stop:
            dropScheduled()
            carryOut(player.stop(at: at), timing)
        case .seek:
            let tick = try Self.tick(request.position, in: song, for: "seek")
            dropScheduled()
            carryOut(player.seek(to: tick, at: at), timing)
        case .loop:
            guard let from = request.from, let to = request.to else {
                player.setLoop(nil)
                break
            }
            let start = try Self.tick(from, in: song, for: "loop")
            let end = try Self.tick(to, in: song, for: "loop")
            guard end > start else {
                throw ControlError(.invalidValue, "the loop's end \(to) is not after its start \(from)",
                                   fix: "give the start first, e.g. 'midihub transport loop 5 9'")
            }
            player.setLoop(SongPlayer.Loop(start: start, end: end))
        case .tempo:
            if let bpm = request.bpm, !(bpm >= 1 && bpm <= 1000) {
                throw ControlError(.invalidValue, "tempo \(bpm) is outside 1…1000 BPM", fix: "give a tempo such as 96")
            }
            player.overrideTempo(request.bpm, at: now)
        }
        forwardTimeline(timing)
        serviceTransport()
        showTriggerStates()
        return publishTransport()
    }

    /// A transport trigger: `play` plays or pauses, `stop` stops, `rewind` goes back to the
    /// start, `record` starts and ends a take (`HubDaemon+Recording`); `next` waits for playlists.
    /// - Throws: `ControlError.triggerDisabled` when it cannot fire now.
    func fireTransportTrigger(_ command: TransportCommand, name: String) throws(ControlError) {
        if command == .record { return toggleRecording(at: Self.now()) }
        guard transportTriggerState(command) != .disabled else {
            let why = command == .next ? "the playlist has no song after this one" : "the hub plays no sequence"
            throw ControlError(.triggerDisabled, "trigger '\(name)' is disabled: \(why)",
                               fix: "load one with 'midihub transport load FILE' or 'midihub play FILE'")
        }
        switch command {
        case .play: _ = try transport(TransportRequest(action: player.state == .playing ? .pause : .play))
        case .stop: _ = try transport(TransportRequest(action: .stop))
        case .rewind: _ = try transport(TransportRequest(action: .seek, position: "1"))
        case .next: _ = try transport(TransportRequest(action: .next))
        case .record: return
        }
    }

    /// How a transport trigger shows: `record` selected while recording; `play` selected while
    /// playing; the others disabled without a sequence, `next` without a song to go to.
    func transportTriggerState(_ command: TransportCommand) -> TriggerState {
        if command == .record { return isRecording ? .selected : .normal }
        guard player.song != nil, command != .next || playlist.hasNext else { return .disabled }
        return command == .play && player.state == .playing ? .selected : .normal
    }

    /// The tick of a seek or loop position.
    private static func tick(_ text: String?, in song: Song, for action: String) throws(ControlError) -> UInt64 {
        guard let text, !text.isEmpty else {
            throw ControlError(.badParams, "\(action) needs a position", fix: "give BAR, BAR:BEAT, SECONDSs or a marker's name")
        }
        let position = TransportPosition(parsing: text)
        guard let tick = position.tick(in: song) else {
            let markers = song.markers.map(\.name)
            throw ControlError(.unknownPosition, "'\(text)' is neither BAR, BAR:BEAT, SECONDSs nor a marker of '\(song.name)'",
                               fix: markers.isEmpty ? "give a bar such as 5:1 or a time such as 42.5s"
                                                    : "use a bar, a time or one of the markers \(markers.joined(separator: ", "))")
        }
        return tick
    }

    /// Where the transport stands now.
    func transportStatus() -> TransportStatus {
        let now = audio?.renderedSeconds ?? Self.now()
        let tick = player.position(at: now)
        let song = player.song
        func barBeat(_ tick: Double) -> String {
            guard let song else { return "1:1" }
            let position = song.tempoMap.barBeat(atTick: UInt64(max(tick, 0)))
            return "\(position.bar):\(position.beat)"
        }
        return TransportStatus(state: player.state.rawValue, song: song?.name, position: barBeat(tick),
                               seconds: Self.rounded(player.seconds(atTick: tick)),
                               duration: Self.rounded(song.map { player.seconds(atTick: Double($0.endTick)) } ?? 0),
                               tempo: Self.rounded(player.tempo(atTick: tick)), tempoOverride: player.tempoOverride != nil,
                               loop: player.loop.map { .init(from: barBeat(Double($0.start)), to: barBeat(Double($0.end))) },
                               clock: clockFollowStatus(), playlist: playlistPlace(), recording: isRecording ? true : nil)
    }

    /// Publishes the status (`transport-changed`) and returns it.
    @discardableResult
    func publishTransport() -> TransportStatus {
        let status = transportStatus()
        log.publish(.transportChanged(status))
        return status
    }

    private static func rounded(_ value: Double) -> Double {
        (value * 1000).rounded() / 1000
    }
}
