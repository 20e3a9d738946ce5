import HubTestSupport
import MIDICore
import RenderCore
import Testing
import Transport
import Hub

/// The transport, the record trigger and MIDI learn, driven through `HubCore`'s one entry the
/// way the daemon drives them: each input with the clock (or time) read for it, effects out,
/// MIDI into a sink. The clock here is monotonic (no audio): offset 0, actions 10 ms ahead.
@Suite struct HubCoreTransportTests {
    /// Two bars at 120 BPM (a quarter is 0.5 s): C4 D4 E4 F4, then a whole C4.
    static let text = """
        ppq 480
        tempo 120
        time 4/4
        track "Piano" channel 1
        default len 1/4 vel 90
          1:1 C4
          1:2 D4
          1:3 E4
          1:4 F4
          2:1 C4 1/1
        """
    static let keyboard = RouterFixtures.keyboard
    static let c4 = MIDIMessage.noteOn(channel: 0, note: 60, velocity: 90)

    /// song (midihub:sequence) → piano ← keys (hardware); `songSource: false` leaves the song out.
    static func core(songSource: Bool = true) throws -> HubCore {
        let song = GraphNode(id: "song", body: .source(try PortSelector(parsing: "midihub:sequence")))
        let nodes = (songSource ? [song] : []) + [GraphFixtures.keys, GraphFixtures.piano]
        let routes = (songSource ? [Route("song", "piano")] : []) + [Route("keys", "piano")]
        var core = try HubCore(state: HubState(graph: try HubGraph(nodes: nodes, routes: routes)), registry: GraphFixtures.registry)
        _ = try feed(.portsListed([keyboard], directSenders: [], connections: [], changed: false, at: 0), to: &core)
        return core
    }

    static func song() throws -> Song {
        Song(file: try SequenceText.parse(text), name: "two-bars.song")
    }

    static func clock(_ now: Double) -> TransportClock {
        TransportClock(now: TransportTime(seconds: now), actionDelay: 0.01)
    }

    @discardableResult
    static func feed(_ input: HubInput, to core: inout HubCore) throws -> (sink: RecordingSink, effects: [HubEffect]) {
        var sink = RecordingSink()
        let effects = try core.handle(input, into: &sink)
        return (sink, effects)
    }

    /// What the effects hand out to play (`schedule`), in order.
    static func scheduled(_ effects: [HubEffect]) -> [SongPlayer.Scheduled] {
        effects.flatMap { effect -> [SongPlayer.Scheduled] in if case .schedule(let events) = effect { events } else { [] } }
    }

    /// Plays what `effects` schedule the way the daemon does: the song's messages back in as
    /// `sequenced` at their times; the notes the graph delivers to the piano.
    static func play(_ effects: [HubEffect], in core: inout HubCore) throws -> [TimedMIDI] {
        var delivered: [TimedMIDI] = []
        for event in scheduled(effects) where !HubCore.isClock(event.message) {
            // The tests' transport clock is the monotonic one (no audio).
            let sink = try feed(.sequenced(event.message, at: TransportClock(now: event.time).monotonic(event.time)), to: &core).sink
            delivered += sink.delivered.filter { $0.node == "piano" }.map(\.event)
        }
        return delivered
    }

    @Test func aLoadedSongPlaysFromTheSequencePortAtItsTimesAndStopEndsItsNotes() throws {
        var core = try Self.core()
        let loaded = try Self.feed(.transport(.load([Self.song()]), Self.clock(10)), to: &core).effects
        #expect(loaded.contains(.dropScheduled))
        #expect(loaded.contains(.log("transport: loaded 'two-bars.song'")))
        #expect(loaded.last == .transportChanged)
        #expect(!loaded.contains { if case .warning = $0 { true } else { false } })

        let started = try Self.feed(.transport(.play, Self.clock(10)), to: &core).effects
        #expect(core.snapshot.transport.player.state == .playing)
        let first = try Self.play(started, in: &core)
        #expect(first.first == TimedMIDI(time: 10.01, message: Self.c4), "the first note at the action's time")
        #expect(Self.scheduled(started).allSatisfy { $0.time <= 10 + HubCore.transportLookahead })

        // A turn half a second on hands out D4, a quarter after C4.
        let turn = try Self.feed(.tick(Self.clock(10.5)), to: &core).effects
        let next = try Self.play(turn, in: &core)
        #expect(next.contains(TimedMIDI(time: 10.51, message: .noteOn(channel: 0, note: 62, velocity: 90))))

        let stopped = try Self.feed(.transport(.stop, Self.clock(10.55)), to: &core).effects
        #expect(stopped.first == .dropScheduled)
        let ends = try Self.play(stopped, in: &core).map(\.message)
        #expect(ends.contains(.noteOff(channel: 0, note: 62, velocity: 0)), "the note sounding is ended")
        #expect(core.snapshot.transport.player.state == .stopped)
        #expect(stopped.last == .transportChanged)
    }

    @Test func aSongNoSourceTakesIsLoadedWithAWarning() throws {
        var core = try Self.core(songSource: false)
        let effects = try Self.feed(.transport(.load([Self.song()]), Self.clock(0)), to: &core).effects
        #expect(effects.contains { if case .warning(let line) = $0 { line.contains("the song plays nowhere") } else { false } })
    }

    @Test func transportCommandsTheSongCannotTakeAreRefusedAndChangeNothing() throws {
        var core = try Self.core()
        #expect(throws: HubRefusal(.noSequence, "the transport has no sequence", fix: "load one: 'midihub transport load FILE'")) {
            try Self.feed(.transport(.play, Self.clock(0)), to: &core)
        }
        try Self.feed(.transport(.load([Self.song()]), Self.clock(0)), to: &core)
        #expect(throws: HubRefusal.self) { try Self.feed(.transport(.seek("chorus"), Self.clock(1)), to: &core) }
        #expect(throws: HubRefusal.self) { try Self.feed(.transport(.tempo(2000), Self.clock(1)), to: &core) }
        #expect(throws: HubRefusal.self) { try Self.feed(.transport(.loop(from: "2", to: "1"), Self.clock(1)), to: &core) }
        #expect(core.snapshot.transport.player.state == .stopped && core.snapshot.transport.player.loop == nil)
        #expect(core.snapshot.transport.player.tempoOverride == nil)
    }

    @Test func theRecordTriggerKeepsLiveMIDIAndHandsTheTakeToTheShell() throws {
        var core = try Self.core()
        let record = try #require(core.snapshot.allTriggers.first { $0.name == "record" })
        let started = try Self.feed(.fire("record", at: 1, clock: Self.clock(1), stamp: "first"), to: &core).effects
        #expect(started.contains(.log("recording: started (fire 'record' again to write the take)")))
        #expect(core.snapshot.state(of: record, at: 1) == .selected)
        let played = try Self.feed(.midi(Self.c4, from: Self.keyboard.address, at: 1.5), to: &core).sink
        #expect(played.messages(at: "piano") == [Self.c4], "recording does not stop the note playing")
        try Self.feed(.midi(.noteOff(channel: 0, note: 60, velocity: 0), from: Self.keyboard.address, at: 2), to: &core)
        let ended = try Self.feed(.fire("record", at: 3, clock: Self.clock(3), stamp: "second"), to: &core).effects
        let take = try #require(ended.compactMap { effect -> (MIDIFile, String, String)? in
            if case .writeTake(let file, let name, let saying) = effect { (file, name, saying) } else { nil }
        }.first)
        #expect(take.1 == "take-second.mid")
        #expect(take.2 == "wrote 2 events (2 s)")
        let notes = take.0.tracks.flatMap(\.events).filter { if case .midi = $0.kind { true } else { false } }
        #expect(notes.map(\.tick) == [480, 960], "half a second and a second in, at 120 BPM and 480 ticks a quarter")
        #expect(take.0.tracks.last?.events.contains(TrackEvent(tick: 0, .meta(.trackName("Virtual Raw MIDI 1-0:VirMIDI 1-0")))) == true)
        #expect(core.snapshot.state(of: record, at: 3) == .normal)
    }

    @Test func recordingWhileTheSongPlaysOverdubsOntoIt() throws {
        var core = try Self.core()
        try Self.feed(.transport(.load([Self.song()]), Self.clock(0)), to: &core)
        try Self.feed(.transport(.play, Self.clock(0)), to: &core)
        let started = try Self.feed(.fire("record", at: 0.2, clock: Self.clock(0.2), stamp: "s"), to: &core).effects
        #expect(started.contains(.log("recording: overdubbing onto 'two-bars.song' (fire 'record' again to end the take)")))
        try Self.feed(.midi(.noteOn(channel: 1, note: 40, velocity: 100), from: Self.keyboard.address, at: 0.51), to: &core)
        let ended = try Self.feed(.fire("record", at: 1, clock: Self.clock(1), stamp: "s"), to: &core).effects
        #expect(ended.contains { if case .writeTake(_, "take-s.mid", let saying) = $0 { saying.hasPrefix("overdubbed 1 events") } else { false } })
        let song = try #require(core.snapshot.transport.playlist.songs.first)
        #expect(song.file.tracks.count == (try Self.song()).file.tracks.count + 1, "the take is the song's new track")
    }

    @Test func learnBindsTheNextControlMovedAndTimesOutOrIsCancelled() throws {
        var core = try Self.core()
        let armed = try Self.feed(.learn(node: "piano", parameter: "cutoff", seconds: 5, at: 0), to: &core).effects
        #expect(armed == [.log("learning piano.cutoff: move a control within 5 s")])
        let knob = MIDIMessage.controlChange(channel: 0, controller: 74, value: 10)
        let taken = try Self.feed(.midi(knob, from: Self.keyboard.address, at: 1), to: &core).sink
        #expect(taken.delivered.isEmpty, "what learning takes plays nothing")
        try Self.feed(.midi(.controlChange(channel: 0, controller: 74, value: 30), from: Self.keyboard.address, at: 1.1), to: &core)
        let learned = try Self.feed(.tick(Self.clock(1.7)), to: &core).effects
        let mapping = try #require(learned.compactMap { if case .mappingLearned(let mapping) = $0 { mapping } else { nil } }.first)
        #expect(mapping.targets.map(\.node) == ["piano"] && mapping.targets.map(\.parameter) == ["cutoff"])
        #expect(core.snapshot.mappings == [mapping])
        #expect(try Self.feed(.cancelLearn, to: &core).effects.isEmpty, "learning ended: nothing to cancel")
        #expect(learned.contains(.linkExternalNodes))

        try Self.feed(.learn(node: "piano", parameter: "cutoff", seconds: 1, at: 2), to: &core)
        let timedOut = try Self.feed(.tick(Self.clock(3.5)), to: &core).effects
        #expect(timedOut.contains(.learnEnded(timedOut: true)))
        try Self.feed(.learn(node: "piano", parameter: "cutoff", seconds: 5, at: 4), to: &core)
        #expect(try Self.feed(.cancelLearn, to: &core).effects == [.learnEnded(timedOut: false)])
        #expect(throws: HubRefusal.self) { try Self.feed(.learn(node: "piano", parameter: "nosuch", seconds: 5, at: 5), to: &core) }
    }
}
