import MIDICore
import Transport

/// The `record` trigger (docs/transport.md#recording): records the MIDI that arrives from the
/// ports feeding the graph, as `midihub record` lays it out (a track per port, at the hub's
/// tempo, 480 ticks per quarter) — or, while the transport plays a song, onto the song as a
/// new track (an overdub); firing it again hands the take to the shell to write
/// (`HubEffect.writeTake`: `recordings/take-STAMP.mid` beside the state file, off the MIDI path).
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// Starts a take at `time` (monotonic) — an overdub onto the song when the transport plays
    /// one, a recording of its own otherwise — or ends the take (named by `stamp`).
    mutating func toggleRecording(at time: HostTime, stamp: String) -> [HubEffect] {
        defer { refreshTriggerLights(at: time) }
        if let take = transport.overdub { return finishOverdub(take, stamp: stamp) }
        if let take = transport.recording { return finishRecording(take, at: time, stamp: stamp) }
        if transport.player.state == .playing, let song = transport.player.song {
            transport.overdub = Overdub(endTick: song.endTick)
            return [.log("recording: overdubbing onto '\(song.name)' (fire 'record' again to end the take)")]
        }
        transport.recording = MIDIRecording(options: .init(beatsPerMinute: router.clock.beatsPerMinute, ticksPerQuarter: 480),
                                            sources: [])
        transport.recordingStart = time
        transport.recordingSources = [:]
        return [.log("recording: started (fire 'record' again to write the take)")]
    }

    /// `transport record`: ends a take in progress; while the song plays, overdubs at once;
    /// stopped, counts in `bars` bars (the metronome clicks them), then plays and overdubs.
    mutating func recordWithCountIn(bars: Int, stamp: String, clock: TransportClock) throws(HubRefusal) -> [HubEffect] {
        guard CountIn.bars.contains(bars) else {
            throw HubRefusal(.invalidValue, "a count-in of \(bars) bars is outside \(CountIn.bars.lowerBound)…\(CountIn.bars.upperBound)",
                             fix: "e.g. 'midihub transport record 1'")
        }
        guard !transport.isRecording, transport.player.state != .playing, let song = transport.player.song else {
            return toggleRecording(at: clock.monotonic(clock.now), stamp: stamp)
        }
        let at = clock.actionTime
        let tick = transport.player.position(at: at)
        let countIn = CountIn(bars: bars, before: tick, of: song, tempo: transport.player.tempo(atTick: tick))
        var effects: [HubEffect] = bars > 0 ? [.timeline([SongPlayer.TimelinePoint(time: at, host: countIn.host)])] : []
        effects += scheduled(transport.player.play(at: at + countIn.length) ?? [], clock: clock)
        transport.overdub = Overdub(endTick: song.endTick)
        return effects + [.log("recording: counting in \(bars) bar\(bars == 1 ? "" : "s"), then overdubbing onto '\(song.name)' "
            + "(record again to end the take)")]
    }

    /// Keeps `message`, which arrived from the port at `address` at `time` (monotonic), while recording.
    /// - Thread: owner (the MIDI path: no I/O).
    mutating func recordLive(_ message: MIDIMessage, from address: PortAddress, at time: HostTime) {
        if transport.overdub != nil {
            // Where the song was when the player heard it: the transport's clock at `time`,
            // less the sound card's delay.
            let clock = transport.clock
            transport.overdub?.record(message, atTick: transport.player.position(at: clock.transportTime(time) - clock.outputDelay))
            return
        }
        guard transport.recording != nil else { return }
        let source = transport.recordingSources[address] ?? {
            let name = port(at: address).map { "\($0.clientName):\($0.portName)" } ?? address.description
            let index = transport.recording?.addSource(name) ?? 0
            transport.recordingSources[address] = index
            return index
        }()
        transport.recording?.record(message, after: time - transport.recordingStart, source: source)
    }

    private mutating func finishRecording(_ take: MIDIRecording, at time: HostTime, stamp: String) -> [HubEffect] {
        transport.recording = nil
        let length = time - transport.recordingStart
        return [.writeTake(take.file(endingAfter: length), name: "take-\(stamp).mid",
                           saying: "wrote \(take.count) events (\(Int(length.seconds.rounded())) s)")]
    }

    /// Ends an overdub: the song gets the take as a new track — playing on with it from where
    /// playing next starts (a loop's start, a resume) — and the song with its new track is
    /// written beside the state.
    private mutating func finishOverdub(_ take: Overdub, stamp: String) -> [HubEffect] {
        transport.overdub = nil
        guard let song = transport.player.song else { return [] }
        let overdubbed = Song(file: take.merged(into: song, trackName: "overdub " + stamp), name: song.name)
        transport.player.replaceSong(overdubbed)
        transport.playlist.replaceCurrent(with: overdubbed)
        return [.writeTake(overdubbed.file, name: "take-\(stamp).mid",
                           saying: "overdubbed \(take.count) events onto '\(song.name)'; wrote the song with its new track")]
    }
}
