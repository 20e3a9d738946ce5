import MIDICore
import RenderCore

/// The hub's transport: plays a `Song` on a clock it is told, with play, pause, stop, seek, a
/// loop region and a tempo override. Pure: the caller reads its clock, asks for what is due
/// up to a horizon (`due(until:)`) and carries the messages out at their times.
///
/// Times are the caller's clock (`TransportTime`). Messages come out in time order; each one's time
/// is where it takes effect (a note's exact frame, a queue's real time). Ending playback
/// (pause, stop, seek, a loop's end, another song) ends the notes the player started: it
/// answers with note-offs for every note on or still to be ended; the caller drops what it
/// had scheduled past the cut. Starting again chases the channels' state (`Song.chase`).
///
/// MIDI clock comes out with the song (the caller sends it to the ports that follow): 24
/// Timing Clock messages per quarter note from the tempo that plays, Start when playing
/// starts at the top, Song Position and Continue when it starts anywhere else (a resume, a
/// seek, a loop's start), Stop when it stops; Song Position alone on a seek while stopped.
///
/// The timeline nodes read (`HostSync`: tempo, beat, bar, time signature, playing or not)
/// comes out as points (`takeTimeline()`): where playing starts, stops, loops, where the
/// tempo or the time signature changes, where the override begins.
///
/// The tempo override replaces the file's tempo map until cleared; it lasts across loops,
/// seeks, stops and pauses (a new song clears it). It takes effect from the end of what was
/// already scheduled, so nothing moves that was handed out.
///
/// - Thread: owner (a plain value the daemon's owner holds).
public struct SongPlayer: Sendable {
    public enum State: String, Hashable, Sendable, Codable {
        case stopped, playing, paused
    }

    /// A message and the time (the caller's clock) where it takes effect.
    public struct Scheduled: Hashable, Sendable {
        public var time: TransportTime
        public var message: MIDIMessage

        public init(time: TransportTime, message: MIDIMessage) {
            self.time = time
            self.message = message
        }
    }

    /// Where the timeline takes a new course: from `time` on, nodes see `host` (its
    /// `samplePosition` and `sampleRate` are left for the caller), moving at its tempo.
    public struct TimelinePoint: Equatable, Sendable {
        public var time: TransportTime
        public var host: HostSync

        public init(time: TransportTime, host: HostSync) {
            self.time = time
            self.host = host
        }
    }

    /// A loop region in ticks; `end` > `start`.
    public struct Loop: Hashable, Sendable {
        public var start: Tick
        public var end: Tick

        public init(start: Tick, end: Tick) {
            self.start = start
            self.end = end
        }
    }

    public private(set) var song: Song?
    public private(set) var state = State.stopped
    public private(set) var tempoOverride: Double?
    /// The override's rate (`tempoOverride` to the nanosecond per quarter).
    private var overrideRate: TickRate?
    public private(set) var loop: Loop?
    /// How many times the song played to its end by itself (the caller reports each), and
    /// when it last did (the caller's clock; up to the lookahead ahead of it).
    public private(set) var endings = 0
    public private(set) var endedAt = TransportTime.origin
    /// A song that replaces `song` where playing next starts (`replaceSong`).
    private var pendingSong: Song?
    /// Where the transport stands while not playing; where it stood at `anchorTime` while playing.
    private var anchorTick = Tick.zero
    private var anchorTime = TransportTime.origin
    /// The next song event to hand out.
    private var next = 0
    /// Timeline points not taken yet (`takeTimeline`).
    private var timeline: [TimelinePoint] = []
    /// The next of `song.timingTicks` to mark on the timeline.
    private var nextTiming = 0
    /// The number of the next clock pulse to hand out (pulse n falls at n × PPQ / 24 ticks).
    private var nextPulse: UInt64 = 0
    /// Handed out up to this time (while playing).
    private(set) var scheduledUntil = TransportTime.origin
    /// Notes handed out as on and not yet as off, by channel × 128 + note.
    private var held = [UInt8](repeating: 0, count: 16 * 128)
    /// Note-offs handed out and maybe not played yet, which a cut may drop (`played(until:)`
    /// forgets those that have played).
    private var recentOffs: [(time: TransportTime, key: Int)] = []

    public init() {}

    /// Loads `song` (stopped at its start), ending what the previous one played; clears the
    /// loop and the tempo override.
    public mutating func load(_ song: Song, at time: TransportTime) -> [Scheduled] {
        let offs = state == .playing ? cut(at: time) + [Scheduled(time: time, message: .stop)] : cut(at: time)
        self.song = song
        pendingSong = nil
        state = .stopped
        anchorTick = .zero
        loop = nil
        tempoOverride = nil
        overrideRate = nil
        return offs
    }

    /// Puts `song` (the same song with more in it: an overdub) in place of the loaded one,
    /// keeping the position, the loop and the tempo override: at once when not playing,
    /// where playing next starts otherwise (a loop's start, a seek, a resume), so nothing
    /// handed out is handed out again.
    public mutating func replaceSong(_ song: Song) {
        if state == .playing { pendingSong = song } else { self.song = song }
    }

    /// Starts (or resumes) at the current position at `time`; chases the channels first.
    /// - Returns: `nil` when no song is loaded.
    public mutating func play(at time: TransportTime) -> [Scheduled]? {
        guard let song else { return nil }
        guard state != .playing else { return [] }
        if anchorTick >= song.endTick { anchorTick = .zero }
        state = .playing
        return start(at: time, from: anchorTick)
    }

    /// Stops where it is at `time`; `play` resumes from there.
    public mutating func pause(at time: TransportTime) -> [Scheduled] {
        guard state == .playing else { return [] }
        anchorTick = position(at: time)
        state = .paused
        mark(anchorTick, at: time)
        return cut(at: time) + [Scheduled(time: time, message: .stop)]
    }

    /// Stops at `time` and goes back to the start (of the loop, when there is one).
    public mutating func stop(at time: TransportTime) -> [Scheduled] {
        let offs = state == .playing ? cut(at: time) + [Scheduled(time: time, message: .stop)] : []
        state = .stopped
        anchorTick = loop?.start ?? .zero
        mark(anchorTick, at: time)
        return offs
    }

    /// Moves to `tick` at `time`; playing goes on from there.
    public mutating func seek(to tick: Tick, at time: TransportTime) -> [Scheduled] {
        guard let song else { return [] }
        let target = min(tick, song.endTick)
        guard state == .playing else {
            anchorTick = target
            return [Scheduled(time: time, message: .songPosition(songPosition(target)))]
        }
        return cut(at: time) + [Scheduled(time: time, message: .stop)] + start(at: time, from: target)
    }

    /// Plays at `beatsPerMinute` (quarter notes) from now on, or the file's tempo map again
    /// with `nil`.
    public mutating func overrideTempo(_ beatsPerMinute: Double?, at time: TransportTime) {
        if state == .playing {
            let from = max(scheduledUntil, time)
            anchorTick = position(at: from)
            anchorTime = from
        }
        tempoOverride = beatsPerMinute.map { min(max($0, 1), 1000) }
        overrideRate = tempoOverride.map { TickRate(beatsPerMinute: $0, ticksPerQuarter: song?.tempoMap.ticksPerQuarter ?? 480) }
        if state == .playing { mark(anchorTick, at: anchorTime) }
    }

    /// Loops `start ..< end` (ticks) from now on, or plays on with `nil`.
    public mutating func setLoop(_ loop: Loop?) {
        self.loop = loop.flatMap { $0.end > $0.start ? $0 : nil }
    }

    /// The messages due up to `horizon`, in time order: the song's events, and at a loop's end
    /// the note-offs and the chase of the loop's start. At the song's end the transport stops
    /// by itself (and `endings` counts it).
    public mutating func due(until horizon: TransportTime) -> [Scheduled] {
        guard state == .playing else { return [] }
        recentOffs.removeAll { $0.time < horizon - Self.offMemory }
        var out: [Scheduled] = []
        // The song is read each pass: a loop's start may put in a replaced one (`replaceSong`).
        for _ in 0..<1000 {
            guard let song else { break }
            let limit = tick(after: horizon - anchorTime, from: anchorTick)
            let boundary = loop.flatMap { anchorTick < $0.end ? $0.end : nil }
            let end = boundary ?? song.endTick
            while nextTiming < song.timingTicks.count, song.timingTicks[nextTiming] < min(limit, end) {
                let tick = song.timingTicks[nextTiming]
                if tick > anchorTick { mark(tick, at: anchorTime + duration(from: anchorTick, to: tick)) }
                nextTiming += 1
            }
            var events: [Scheduled] = []
            while next < song.events.count {
                let event = song.events[next]
                let tick = event.tick
                guard boundary == nil ? tick <= min(limit, end) : tick < min(limit, end) else { break }
                next += 1
                let scheduled = Scheduled(time: anchorTime + duration(from: anchorTick, to: tick), message: event.message)
                if note(scheduled) { events.append(scheduled) }
            }
            out += Self.merged(pulses(before: min(limit, end)), events)
            guard limit >= end else { break }
            let endTime = anchorTime + duration(from: anchorTick, to: end)
            out += releaseHeld(at: endTime) + [Scheduled(time: endTime, message: .stop)]
            guard let loop, boundary != nil else {
                state = .stopped
                anchorTick = .zero
                endings += 1
                endedAt = endTime
                mark(.zero, at: endTime)
                break
            }
            out += start(at: endTime, from: loop.start)
        }
        scheduledUntil = max(scheduledUntil, horizon)
        return out
    }

    /// Tells the player that what it handed out for before `time` has played (a cut no
    /// longer needs to repeat those note-offs).
    public mutating func played(until time: TransportTime) {
        recentOffs.removeAll { $0.time < time }
    }

    /// The position at `time`; the anchor's before it (playing starts, or a loop begins
    /// again, up to the lookahead after the caller's clock).
    public func position(at time: TransportTime) -> Tick {
        guard state == .playing, time > anchorTime, let song else { return anchorTick }
        return min(tick(after: time - anchorTime, from: anchorTick), song.endTick)
    }

    /// The tempo (quarter notes per minute) that plays at `tick`.
    public func tempo(atTick tick: Tick) -> Double {
        if let tempoOverride { return tempoOverride }
        guard let song else { return 120 }
        return song.tempoMap.tempoChanges.last(where: { $0.tick <= tick })?.beatsPerMinute ?? 120
    }

    /// How long the song plays from its start to `tick` at the tempo that plays (the
    /// override's when set).
    public func duration(atTick tick: Tick) -> HostDuration {
        duration(from: .zero, to: tick)
    }

    // MARK: - Timing

    /// The song's time from `start` to `end` on the host clock: where musical time becomes
    /// host time, once, in integers (`TickRate`).
    private func duration(from start: Tick, to end: Tick) -> HostDuration {
        guard let song else { return .zero }
        if let overrideRate { return overrideRate.duration(of: end - start) }
        return song.tempoMap.duration(at: end) - song.tempoMap.duration(at: start)
    }

    /// Where the song is `duration` after `start`.
    private func tick(after duration: HostDuration, from start: Tick) -> Tick {
        guard let song else { return start }
        if let overrideRate { return start + overrideRate.span(of: duration) }
        return song.tempoMap.tick(after: song.tempoMap.duration(at: start) + duration)
    }

    // MARK: - Notes

    /// Anchors playback at `tick` = `time`: the clock's Start (or Song Position and
    /// Continue), then the chase of `tick`, at `time`.
    private mutating func start(at time: TransportTime, from tick: Tick) -> [Scheduled] {
        if let pendingSong {
            song = pendingSong
            self.pendingSong = nil
        }
        guard let song else { return [] }
        anchorTick = tick
        anchorTime = time
        scheduledUntil = time
        next = song.firstEvent(atOrAfter: tick)
        nextTiming = song.timingTicks.firstIndex { $0 > tick } ?? song.timingTicks.count
        mark(tick, at: time)
        nextPulse = firstPulse(atOrAfter: tick)
        let clock: [MIDIMessage] = tick == .zero ? [.start] : [.songPosition(songPosition(tick)), .continue]
        return (clock + song.chase(before: tick)).map { Scheduled(time: time, message: $0) }
    }

    // MARK: - Timeline

    /// The timeline points since the last call, in time order.
    public mutating func takeTimeline() -> [TimelinePoint] {
        defer { timeline.removeAll(keepingCapacity: true) }
        return timeline
    }

    /// Marks the timeline at `tick` = `time`, playing or not as the transport is now.
    private mutating func mark(_ tick: Tick, at time: TransportTime) {
        guard let song else { return }
        let host = song.tempoMap.hostSync(atTick: tick, tempo: tempoOverride, transport: state == .playing ? .playing : .stopped)
        timeline.append(TimelinePoint(time: time, host: host))
    }

    // MARK: - Clock

    /// The song's ticks per quarter note (24 clock pulses).
    private var ticksPerQuarter: UInt64 { UInt64(song?.tempoMap.ticksPerQuarter ?? 480) }

    /// Where clock pulse `number` falls: `number` × PPQ / 24 ticks, exactly.
    private func pulseTick(_ number: UInt64) -> Tick {
        Tick(number &* ticksPerQuarter, over: 24)
    }

    /// The number of the first clock pulse at or after `tick`.
    private func firstPulse(atOrAfter tick: Tick) -> UInt64 {
        let number = Tick.scaled(tick.units, by: 24, over: ticksPerQuarter * Tick.unitsPerTick)
        return pulseTick(number) < tick ? number + 1 : number
    }

    /// Song Position: sixteenth notes from the start to `tick` (at or before it).
    private func songPosition(_ tick: Tick) -> UInt16 {
        UInt16(min(Tick.scaled(tick.units, by: 4, over: ticksPerQuarter * Tick.unitsPerTick), 16_383))
    }

    /// The clock pulses from `nextPulse` up to (not at) `tick`, at their times; at most
    /// `maxPulses` at once (a file's absurd tempo, a microsecond per quarter, would ask for
    /// millions in one turn: the rest are skipped, as no MIDI cable carries them).
    private mutating func pulses(before tick: Tick) -> [Scheduled] {
        var pulses: [Scheduled] = []
        while pulseTick(nextPulse) < tick {
            guard pulses.count < Self.maxPulses else {
                nextPulse = firstPulse(atOrAfter: tick)
                break
            }
            pulses.append(Scheduled(time: anchorTime + duration(from: anchorTick, to: pulseTick(nextPulse)), message: .clock))
            nextPulse += 1
        }
        return pulses
    }

    /// More clock pulses than a MIDI cable carries in a second (3,125 bytes).
    public static let maxPulses = 4096

    /// Two time-ordered lists as one, a pulse before an event at the same time.
    private static func merged(_ pulses: [Scheduled], _ events: [Scheduled]) -> [Scheduled] {
        guard !pulses.isEmpty else { return events }
        var out: [Scheduled] = []
        out.reserveCapacity(pulses.count + events.count)
        var p = 0, e = 0
        while p < pulses.count || e < events.count {
            if e == events.count || (p < pulses.count && pulses[p].time <= events[e].time) {
                out.append(pulses[p])
                p += 1
            } else {
                out.append(events[e])
                e += 1
            }
        }
        return out
    }

    /// Ends at `time` everything the player may have left sounding: the notes handed out as
    /// on, and those whose note-off was handed out lately (the caller may drop it unplayed).
    private mutating func cut(at time: TransportTime) -> [Scheduled] {
        for off in recentOffs where held[off.key] == 0 { held[off.key] = 1 }
        recentOffs.removeAll()
        return releaseHeld(at: time)
    }

    /// Note-offs at `time` for every note held — one for each time a note was started and
    /// not ended (a song may start the same key twice); remembered as handed out (a cut
    /// before `time` may drop them).
    private mutating func releaseHeld(at time: TransportTime) -> [Scheduled] {
        var offs: [Scheduled] = []
        for key in held.indices where held[key] > 0 {
            let off = Scheduled(time: time, message: .noteOff(channel: UInt8(key / 128), note: UInt8(key % 128), velocity: 0))
            offs += repeatElement(off, count: Int(held[key]))
            held[key] = 0
            recentOffs.append((time, key))
        }
        return offs
    }

    /// Keeps count of what sounds after `scheduled`.
    /// - Returns: false for a note-off of a note the player does not hold (one that started
    ///   before where playing started), which is not handed out.
    private mutating func note(_ scheduled: Scheduled) -> Bool {
        switch scheduled.message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            let key = Int(channel) * 128 + Int(note)
            held[key] = held[key] &+ (held[key] < 255 ? 1 : 0)
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            let key = Int(channel) * 128 + Int(note)
            guard held[key] > 0 else { return false }
            held[key] -= 1
            recentOffs.append((scheduled.time, key))
        default:
            break
        }
        return true
    }

    /// How long a handed-out note-off is remembered at most (longer than any lookahead), when
    /// `played(until:)` is not called.
    static let offMemory: HostDuration = 1
}
