import MIDICore
import RenderCore
import Transport

/// The transport in the hub (docs/transport.md): a loaded sequence plays through the graph as
/// the source port `midihub:sequence`, routed like any input. The core decides what plays and
/// when, on the clock the shell read (`TransportClock`); the shell carries the events out
/// (`HubEffect.schedule`: unit nodes at their exact frame, ALSA ports through the transport's
/// queue, JACK ports when due). A pause, stop, seek or loop drops what was handed out and not
/// played (`dropScheduled`), then ends the notes the sequence held.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// How far ahead of the clock events are handed out.
    public static let transportLookahead: HostDuration = 0.1
    /// How far the ALSA queue's time may trail the clock: seen in the VM under load.
    static let queueLagMargin: HostDuration = 0.1

    /// Carries out a transport input at `clock`.
    /// - Throws: `HubRefusal` when no song is loaded, for a position the song does not have,
    ///   a value out of range, or an action the clock the transport follows decides.
    /// - Thread: owner.
    mutating func transport(_ input: TransportInput, clock: TransportClock) throws(HubRefusal) -> [HubEffect] {
        transport.clock = clock
        switch input {
        case .load(let songs):
            guard let first = transport.playlist.replace(with: songs) else { return [.transportChanged] }
            return installSong(first, clock: clock)
        case .toggleRecording(let stamp):
            return toggleRecording(at: clock.monotonic(clock.now), stamp: stamp)
        case .loop, .repeatMode, .record:
            break
        case .play, .pause, .stop, .seek, .tempo, .next, .previous:
            try refuseWhileFollowing(input.actionName)
        }
        guard let song = transport.player.song else {
            throw HubRefusal(.noSequence, "the transport has no sequence", fix: "load one: 'midihub transport load FILE'")
        }
        let at = clock.actionTime
        transport.lastClock = clock.now
        notePlayed(until: clock.now, clock: clock)
        transport.onAudioClock = clock.onAudio
        var effects: [HubEffect] = []
        switch input {
        case .load, .toggleRecording:
            break
        case .next, .previous:
            effects += try switchSong(next: input.actionName == "next", clock: clock)
        case .repeatMode(let mode):
            guard let mode = mode.flatMap(Playlist.Repeat.init(rawValue:)) else {
                throw HubRefusal(.invalidValue, "repeat '\(input.repeatText)' is none of off, one, all",
                                 fix: "e.g. 'midihub transport repeat all'")
            }
            transport.playlist.repeatMode = mode
        case .record(let bars, let stamp):
            effects += try recordWithCountIn(bars: bars, stamp: stamp, clock: clock)
        case .play:
            effects += scheduled(transport.player.play(at: at) ?? [], clock: clock)
        case .pause:
            effects.append(dropScheduled())
            effects += scheduled(transport.player.pause(at: at), clock: clock)
        case .stop:
            effects.append(dropScheduled())
            effects += scheduled(transport.player.stop(at: at), clock: clock)
        case .seek(let position):
            let tick = try Self.tick(position, in: song, for: "seek")
            effects.append(dropScheduled())
            effects += scheduled(transport.player.seek(to: tick, at: at), clock: clock)
        case .loop(let from, let to):
            guard let from, let to else {
                transport.player.setLoop(nil)
                break
            }
            let start = try Self.tick(from, in: song, for: "loop")
            let end = try Self.tick(to, in: song, for: "loop")
            guard end > start else {
                throw HubRefusal(.invalidValue, "the loop's end \(to) is not after its start \(from)",
                                 fix: "give the start first, e.g. 'midihub transport loop 5 9'")
            }
            transport.player.setLoop(SongPlayer.Loop(start: start, end: end))
        case .tempo(let bpm):
            if let bpm, !(bpm >= 1 && bpm <= 1000) {
                throw HubRefusal(.invalidValue, "tempo \(bpm) is outside 1…1000 BPM", fix: "give a tempo such as 96")
            }
            transport.player.overrideTempo(bpm, at: clock.now)
        }
        effects += scheduled([], clock: clock)
        effects += serviceTransport(clock)
        refreshTriggerLights(at: clock.monotonic(clock.now))
        return effects + [.transportChanged]
    }

    /// Hands out what is due; notices the song's end and a change of clock (audio started or
    /// stopped while playing: the song goes on from where it was on the new clock).
    /// - Thread: owner, every turn of its loop (`HubInput.tick`).
    mutating func serviceTransport(_ clock: TransportClock) -> [HubEffect] {
        transport.clock = clock
        var effects = serviceClockFollow(clock)
        guard transport.player.state == .playing else { return effects }
        if clock.onAudio != transport.onAudioClock {
            // The old clock's schedule is dropped and its notes ended now, on the new clock;
            // the song goes on from where the old clock had it.
            transport.onAudioClock = clock.onAudio
            effects.append(dropScheduled())
            let at = clock.actionTime
            let offs = transport.player.pause(at: transport.lastClock).map { SongPlayer.Scheduled(time: at, message: $0.message) }
            _ = transport.player.takeTimeline()  // stamped on the old clock
            effects += scheduled(offs, clock: clock)
            effects += scheduled(transport.player.play(at: at) ?? [], clock: clock)
        }
        transport.lastClock = clock.now
        notePlayed(until: clock.now, clock: clock)
        let endings = transport.player.endings
        effects += scheduled(transport.player.due(until: clock.now + Self.transportLookahead), clock: clock)
        if transport.player.endings != endings {
            effects.append(.log("transport: '\(transport.player.song?.name ?? "")' ended"))
            effects += playOnAfterEnd(clock)
            effects.append(.transportChanged)
        }
        return effects
    }

    /// Routes a message of the transport's (`HubEffect.schedule`) from `midihub:sequence`, at
    /// `time` (the monotonic clock), into `sink`.
    /// - Thread: owner.
    mutating func routeSequenced(_ message: MIDIMessage, at time: HostTime, into sink: inout some RouteSink) {
        if transport.sequenceSender.map({ !router.isCurrent($0) }) ?? true {
            transport.sequenceSender = router.sender(for: sequencePort)
        }
        guard let sender = transport.sequenceSender, sender.feedsGraph else { return }
        router.route(message, from: sender, time: time, into: &sink)
    }

    /// The external nodes that follow the transport's clock (`clock: send`): their index in
    /// the graph and their offset.
    /// - Thread: owner.
    var clockFollowers: [(index: Int, offset: HostDuration)] {
        router.graph.nodes.enumerated().compactMap { index, node in
            guard case .external(let external) = node.body, external.clock == .send else { return nil }
            return (index, HostDuration(seconds: external.clockOffset / 1000))
        }
    }

    /// Whether `message` is MIDI clock (pulses, Start, Continue, Stop, Song Position).
    /// - Thread: any.
    public static func isClock(_ message: MIDIMessage) -> Bool {
        switch message {
        case .clock, .start, .continue, .stop, .songPosition: true
        default: false
        }
    }

    /// What the transport calls the song read from `path`: its file name.
    /// - Thread: any.
    public static func songName(ofPath path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// `events` to carry out, after the song's timeline since the last call (its beats for
    /// the generating processors, and for the render thread's `HostSync`).
    mutating func scheduled(_ events: [SongPlayer.Scheduled], clock: TransportClock) -> [HubEffect] {
        let points = transport.player.takeTimeline()
        for point in points {
            let time = clock.monotonic(point.time)
            transport.songClocks.append((time, TempoClock(following: point.host, at: time)))
        }
        var effects: [HubEffect] = points.isEmpty ? [] : [.timeline(points)]
        if !events.isEmpty { effects.append(.schedule(events)) }
        return effects
    }

    /// Drops what was handed out and has not played (the shell's queues, the song's beats).
    mutating func dropScheduled() -> HubEffect {
        transport.songClocks.removeAll()
        return .dropScheduled
    }

    /// Hands the generating processors (the arpeggiator) the song's beats from each timeline
    /// point that is due: they play on the song's grid while it plays, on the hub's after.
    mutating func followSongClock(until now: HostTime) {
        while let first = transport.songClocks.first, first.time <= now {
            transport.songClocks.removeFirst()
            router.followSong(first.clock, at: first.time)
        }
    }

    /// Tells the player what has surely played by `now`: ALSA ports hear events the sound
    /// card's delay after the clock, and the kernel queue's time may trail the monotonic
    /// clock by a stall of the machine — a cut repeats the note-offs of that margin too
    /// (a repeated note-off is harmless; one the queue dropped unplayed hangs a note).
    mutating func notePlayed(until now: TransportTime, clock: TransportClock) {
        transport.player.played(until: now - clock.outputDelay - Self.queueLagMargin)
    }

    /// Loads `song` (the playlist's) into the transport, stopped at its start.
    private mutating func installSong(_ song: Song, clock: TransportClock) -> [HubEffect] {
        notePlayed(until: clock.now, clock: clock)
        var effects = [dropScheduled()]
        effects += scheduled(transport.player.load(song, at: clock.actionTime), clock: clock)
        effects.append(.log("transport: loaded '\(song.name)'"))
        if !router.sender(for: sequencePort).feedsGraph, clockFollowers.isEmpty {
            effects.append(.warning("transport: no source node takes midihub:sequence, so the song plays nowhere "
                + "(fix: add a node such as `song: { source: \"midihub:sequence\" }` and a route from it, docs/transport.md)"))
        }
        return effects + [.transportChanged]
    }

    /// `next` or `previous`: loads that song now, playing on if the transport played.
    private mutating func switchSong(next: Bool, clock: TransportClock) throws(HubRefusal) -> [HubEffect] {
        let current = transport.player.song?.name ?? ""
        guard let song = next ? transport.playlist.next() : transport.playlist.previous() else {
            throw HubRefusal(.invalidValue, "no song after '\(current)' in the playlist",
                             fix: "'midihub transport repeat all' goes on with the first; 'previous' goes back")
        }
        let at = clock.actionTime
        let playing = transport.player.state == .playing
        var effects = [dropScheduled()]
        effects += scheduled(transport.player.load(song, at: at), clock: clock)
        if playing { effects += scheduled(transport.player.play(at: at) ?? [], clock: clock) }
        let place = "\(transport.playlist.index + 1) of \(transport.playlist.songs.count)"
        return effects + [.log("transport: loaded '\(song.name)' (\(place))")]
    }

    /// After the loaded song ended by itself: plays what the playlist has next from where it
    /// ended (its end may lie up to the lookahead ahead), or leaves the transport stopped.
    private mutating func playOnAfterEnd(_ clock: TransportClock) -> [HubEffect] {
        guard let song = transport.playlist.afterEnd() else { return [] }
        let at = max(transport.player.endedAt, clock.now)
        var effects = scheduled(transport.player.load(song, at: at), clock: clock)
        effects += scheduled(transport.player.play(at: at) ?? [], clock: clock)
        let place = "\(transport.playlist.index + 1) of \(transport.playlist.songs.count)"
        return effects + [.log("transport: playing '\(song.name)' (\(place))")]
    }

    /// The tick of a seek or loop position.
    private static func tick(_ text: String?, in song: Song, for action: String) throws(HubRefusal) -> Tick {
        guard let text, !text.isEmpty else {
            throw HubRefusal(.badParams, "\(action) needs a position", fix: "give BAR, BAR:BEAT, SECONDSs or a marker's name")
        }
        guard let tick = TransportPosition(parsing: text).tick(in: song) else {
            let markers = song.markers.map(\.name)
            throw HubRefusal(.unknownPosition, "'\(text)' is neither BAR, BAR:BEAT, SECONDSs nor a marker of '\(song.name)'",
                             fix: markers.isEmpty ? "give a bar such as 5:1 or a time such as 42.5s"
                                                  : "use a bar, a time or one of the markers \(markers.joined(separator: ", "))")
        }
        return tick
    }
}

/// - Thread: any (a plain value).
extension TransportInput {
    /// The action's name, as a `transport` request and the errors say it.
    var actionName: String {
        switch self {
        case .load: "load"
        case .play: "play"
        case .pause: "pause"
        case .stop: "stop"
        case .seek: "seek"
        case .loop: "loop"
        case .tempo: "tempo"
        case .next: "next"
        case .previous: "previous"
        case .repeatMode: "repeat"
        case .record: "record"
        case .toggleRecording: "record"
        }
    }

    var repeatText: String {
        if case .repeatMode(let mode) = self { mode ?? "" } else { "" }
    }
}
