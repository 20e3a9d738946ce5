import Control
import Dispatch
import Foundation
import Hub
import MIDICore
import Sequencer
import Transport

/// The `record` trigger (docs/transport.md#recording): records the MIDI that arrives from the
/// ports feeding the graph, as `midihub record` lays it out (a track per port, at the hub's
/// tempo, 480 ticks per quarter) — or, while the transport plays a song, onto the song as a
/// new track (an overdub); firing it again writes the take to `recordings/take-DATE.mid`
/// beside the state file, off the MIDI path.
extension HubDaemon {
    /// Where takes are written: `recordings/` beside the state file.
    var recordingsFolder: String {
        URL(fileURLWithPath: options.statePath).deletingLastPathComponent().appendingPathComponent("recordings").path
    }

    /// Starts a take at `time` — an overdub onto the song when the transport plays one, a
    /// recording of its own otherwise — or ends the take and writes it.
    /// - Thread: owner.
    func toggleRecording(at time: Double) {
        if let take = overdub { return finishOverdub(take) }
        if let take = recording { return finishRecording(take, at: time) }
        if player.state == .playing, let song = player.song {
            overdub = Overdub(endTick: song.endTick)
            log.info("recording: overdubbing onto '\(song.name)' (fire 'record' again to end the take)")
            return
        }
        recording = MIDIRecording(options: .init(beatsPerMinute: core.router.clock.beatsPerMinute, ticksPerQuarter: 480), sources: [])
        recordingStart = time
        recordingSources = [:]
        log.info("recording: started (fire 'record' again to write the take)")
    }

    /// `transport record`: ends a take in progress; while the song plays, overdubs at once;
    /// stopped, counts in `bars` bars (the metronome clicks them), then plays and overdubs.
    /// - Throws: `ControlError.invalidValue` for a count-in outside 0…4 bars.
    /// - Thread: owner.
    func recordWithCountIn(bars: Int, now: Double, timing: TransportTiming) throws(ControlError) {
        guard CountIn.bars.contains(bars) else {
            throw ControlError(.invalidValue, "a count-in of \(bars) bars is outside \(CountIn.bars.lowerBound)…\(CountIn.bars.upperBound)",
                               fix: "e.g. 'midihub transport record 1'")
        }
        guard !isRecording, player.state != .playing, let song = player.song else {
            return toggleRecording(at: Self.now())
        }
        let at = transportActionTime(now)
        let tick = player.position(at: at)
        let countIn = CountIn(bars: bars, before: tick, of: song, tempo: player.tempo(atTick: tick))
        if let audio, audio.renderedSeconds != nil, bars > 0 { audio.scheduleTimeline(countIn.host, at: at) }
        carryOut(player.play(at: at + countIn.seconds) ?? [], timing)
        overdub = Overdub(endTick: song.endTick)
        log.info("recording: counting in \(bars) bar\(bars == 1 ? "" : "s"), then overdubbing onto '\(song.name)' (record again to end the take)")
    }

    /// Whether a take is being recorded (the `record` trigger shows it).
    var isRecording: Bool { recording != nil || overdub != nil }

    private func finishRecording(_ take: MIDIRecording, at time: Double) {
        recording = nil
        let length = time - recordingStart
        write(take.file(endingAt: length), named: "take-" + Self.takeStamp() + ".mid",
              saying: "wrote \(take.count) events (\(Int(length.rounded())) s)")
    }

    /// Ends an overdub: the song gets the take as a new track — playing on with it from where
    /// playing next starts (a loop's start, a resume) — and the song with its new track is
    /// written beside the state.
    private func finishOverdub(_ take: Overdub) {
        overdub = nil
        guard let song = player.song else { return }
        let name = "take-" + Self.takeStamp() + ".mid"
        let overdubbed = Song(file: take.merged(into: song, trackName: "overdub " + Self.takeStamp()), name: song.name)
        player.replaceSong(overdubbed)
        playlist.replaceCurrent(with: overdubbed)
        write(overdubbed.file, named: name, saying: "overdubbed \(take.count) events onto '\(song.name)'; wrote the song with its new track")
    }

    /// Writes `file` as `recordings/NAME` beside the state, off the MIDI path, atomically.
    /// Two takes in the same second get `NAME-2.mid` and on.
    private func write(_ file: MIDIFile, named name: String, saying what: String) {
        let folder = recordingsFolder
        let log = log
        slowWork.enter()
        DispatchQueue.global(qos: .utility).async { [slowWork] in
            defer { slowWork.leave() }
            let stem = folder + "/" + name.replacingOccurrences(of: ".mid", with: "")
            var path = stem + ".mid"
            var number = 2
            while FileManager.default.fileExists(atPath: path) {
                path = stem + "-\(number).mid"
                number += 1
            }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try AtomicFile.write(file.smfBytes(), to: path)
                log.info("recording: \(what) to \(path)")
            } catch {
                log.warning("recording: cannot write \(path): \(error) (fix: check free space and the permissions of \(folder))")
            }
        }
    }

    /// Keeps `message`, which arrived from the port at `address` at `time`, while recording.
    /// - Thread: owner (the MIDI path: no I/O).
    func recordLive(_ message: MIDIMessage, from address: PortAddress, at time: Double) {
        if overdub != nil {
            // Where the song was when the player heard it: the transport's clock at `time`,
            // less the sound card's delay.
            let clockOffset = audio?.renderedSeconds.map { $0 - Self.now() } ?? 0
            overdub?.record(message, atTick: player.position(at: time + clockOffset - (audio?.outputDelay ?? 0)))
            return
        }
        guard recording != nil else { return }
        let source = recordingSources[address] ?? {
            let name = ports.sender(at: address).map { "\($0.clientName):\($0.portName)" } ?? address.description
            let index = recording?.addSource(name) ?? 0
            recordingSources[address] = index
            return index
        }()
        recording?.record(message, seconds: time - recordingStart, source: source)
    }

    /// `2026-11-25-183012`, local time.
    private static func takeStamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        return formatter.string(from: Date())
    }
}
