import Dispatch
import Foundation
import Control
import Sequencer
import Transport

/// The transport's playlist (docs/transport.md#playlists): `playlist` loads songs read on
/// the control side; `next` and `previous` switch songs (playing on if the transport
/// played); a song's end plays the next one (or the same one, or the first after the last)
/// from the frame where it ended; `repeat` sets what comes after an end.
extension HubDaemon {
    /// Loads `songs` as the playlist, stopped at the first song's start.
    /// - Thread: owner.
    func loadPlaylist(_ songs: [Song]) -> TransportStatus {
        guard let first = playlist.replace(with: songs) else { return transportStatus() }
        return installSong(first)
    }

    /// Carries out `next`, `previous` or `repeat`.
    /// - Throws: `ControlError` when there is no song to go to, or for an unknown repeat mode.
    /// - Thread: owner.
    func playlistAction(_ request: TransportRequest) throws(ControlError) {
        switch request.action {
        case .next, .previous:
            let current = player.song?.name ?? ""
            guard let song = request.action == .next ? playlist.next() : playlist.previous() else {
                throw ControlError(.invalidValue, "no song after '\(current)' in the playlist",
                                   fix: "'midihub transport repeat all' goes on with the first; 'previous' goes back")
            }
            switchSong(to: song)
        case .repeat:
            guard let mode = request.mode.flatMap(Playlist.Repeat.init(rawValue:)) else {
                throw ControlError(.invalidValue, "repeat '\(request.mode ?? "")' is none of off, one, all",
                                   fix: "e.g. 'midihub transport repeat all'")
            }
            playlist.repeatMode = mode
        default:
            return
        }
    }

    /// Loads `song` now, playing on if the transport played.
    private func switchSong(to song: Song) {
        let (now, timing) = transportTiming()
        let at = transportActionTime(now)
        let playing = player.state == .playing
        dropScheduled()
        carryOut(player.load(song, at: at), timing)
        if playing { carryOut(player.play(at: at) ?? [], timing) }
        log.info("transport: loaded '\(song.name)' (\(playlist.index + 1) of \(playlist.songs.count))")
    }

    /// After the loaded song ended by itself: plays what the playlist has next from where it
    /// ended (its end may lie up to the lookahead ahead), or leaves the transport stopped.
    /// - Thread: owner (`serviceTransport`).
    func playOnAfterEnd(_ timing: TransportTiming, now: Double) {
        guard let song = playlist.afterEnd() else { return }
        let at = max(player.endedAt, now)
        carryOut(player.load(song, at: at), timing)
        carryOut(player.play(at: at) ?? [], timing)
        log.info("transport: playing '\(song.name)' (\(playlist.index + 1) of \(playlist.songs.count))")
    }

    /// A `play` trigger: reads the file on a worker (the disk never holds up MIDI), then
    /// loads it and plays it from the top; a file that cannot be read or played is logged.
    /// - Thread: owner (the worker hands the song back to it).
    func playSequence(at path: String, trigger name: String) {
        slowWork.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            defer { slowWork.leave() }
            do {
                let song = Song(file: try SequenceFileReader.read(path: path), name: Self.songName(path))
                try owner.perform { [self] in
                    _ = loadSong(song)
                    _ = try transport(TransportRequest(action: .play))
                }
            } catch {
                log.warning("trigger '\(name)': cannot play \(path): \(error)")
            }
        }
    }

    /// What the transport calls the song read from `path`: its file name.
    static func songName(_ path: String) -> String {
        URL(fileURLWithPath: path).lastPathComponent
    }

    /// The status's playlist place: with more than one song, or a repeat mode.
    func playlistPlace() -> TransportStatus.PlaylistPlace? {
        guard playlist.songs.count > 1 || playlist.repeatMode != .off else { return nil }
        return .init(song: playlist.index + 1, count: playlist.songs.count, repeat: playlist.repeatMode.rawValue)
    }
}
