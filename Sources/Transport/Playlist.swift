/// The transport's songs in order (docs/transport.md#playlists): which one is loaded, and
/// what comes after a song's end by the repeat mode. A `load` is a playlist of one song.
///
/// - Thread: owner (a plain value the daemon's owner holds).
public struct Playlist: Sendable {
    /// What plays after a song's end.
    public enum Repeat: String, Hashable, Sendable, Codable, CaseIterable {
        /// The next song; the transport stops after the last.
        case off
        /// The same song again.
        case one
        /// The next song; the first after the last.
        case all
    }

    public private(set) var songs: [Song] = []
    /// The loaded song's index in `songs`.
    public private(set) var index = 0
    public var repeatMode = Repeat.off

    public init() {}

    /// Replaces the songs (not the repeat mode); the first is loaded.
    /// - Returns: the first song, or `nil` for an empty list.
    public mutating func replace(with songs: [Song]) -> Song? {
        self.songs = songs
        index = 0
        return songs.first
    }

    /// Puts `song` (the loaded one with an overdub) in the loaded one's place.
    public mutating func replaceCurrent(with song: Song) {
        guard songs.indices.contains(index) else { return }
        songs[index] = song
    }

    /// The song after the loaded one when the user asks (`next`): with `all`, the first after
    /// the last; `nil` after the last otherwise.
    public mutating func next() -> Song? {
        move(to: index + 1 < songs.count ? index + 1 : repeatMode == .all ? 0 : nil)
    }

    /// The song before the loaded one (`previous`): with `all`, the last before the first;
    /// the first again before the first otherwise.
    public mutating func previous() -> Song? {
        move(to: index > 0 ? index - 1 : repeatMode == .all ? songs.count - 1 : 0)
    }

    /// What plays when the loaded song ends by itself: the same one (`one`), the next one,
    /// or nothing after the last (`off`).
    public mutating func afterEnd() -> Song? {
        repeatMode == .one ? move(to: index) : next()
    }

    /// Whether `next` has a song to go to.
    public var hasNext: Bool {
        !songs.isEmpty && (index + 1 < songs.count || repeatMode == .all)
    }

    private mutating func move(to target: Int?) -> Song? {
        guard let target, songs.indices.contains(target) else { return nil }
        index = target
        return songs[target]
    }
}
