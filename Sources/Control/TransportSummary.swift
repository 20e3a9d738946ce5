/// `transport` parameters: what to do with the hub's transport.
/// `{"action":"load","path":"/home/me/song.mid"}`, `{"action":"play"}`, `{"action":"seek","position":"9:1"}`,
/// `{"action":"loop","from":"5","to":"9"}` (without both: no loop), `{"action":"tempo","bpm":96}` (without
/// `bpm`: the file's tempo again), `{"action":"status"}`; `{"action":"playlist","paths":["/home/me/a.mid","/home/me/b.mid"]}`,
/// `{"action":"next"}`, `{"action":"previous"}`, `{"action":"repeat","mode":"all"}` (`off`, `one`, `all`);
/// `{"action":"record","bars":1}` (count in, play and overdub; again: end the take).
///
/// - Thread: any (a plain value).
public struct TransportRequest: Hashable, Sendable, Codable {
    public enum Action: String, Hashable, Sendable, Codable, CaseIterable {
        case status, load, play, pause, stop, seek, loop, tempo, playlist, next, previous, `repeat`, record
    }

    public var action: Action
    /// `load`: a sequence file on the daemon's machine (absolute path): SMF or `.song` text.
    public var path: String?
    /// `seek`: `BAR`, `BAR:BEAT`, `SECONDSs` or a marker's name.
    public var position: String?
    /// `loop`: the region's start and end, as `position`.
    public var from: String?
    public var to: String?
    /// `tempo`: quarter notes per minute that replace the file's tempo map.
    public var bpm: Double?
    /// `playlist`: sequence files on the daemon's machine (absolute paths), played in order.
    public var paths: [String]?
    /// `repeat`: `off` (stop after the last song), `one` (the same song again) or `all`.
    public var mode: String?
    /// `record`: bars of count-in (0…4; 1 when absent).
    public var bars: Int?

    public init(action: Action, path: String? = nil, position: String? = nil, from: String? = nil, to: String? = nil,
                bpm: Double? = nil, paths: [String]? = nil, mode: String? = nil, bars: Int? = nil) {
        self.action = action
        self.path = path
        self.position = position
        self.from = from
        self.to = to
        self.bpm = bpm
        self.paths = paths
        self.mode = mode
        self.bars = bars
    }
}

/// Where the hub's transport stands: the result of `transport` and the `transport-changed` event.
///
/// - Thread: any (a plain value).
public struct TransportStatus: Hashable, Sendable, Codable {
    /// `stopped`, `playing` or `paused`.
    public var state: String
    /// The loaded sequence's file name; `nil` before one is loaded.
    public var song: String?
    /// `BAR:BEAT` (1-based).
    public var position: String
    /// Seconds from the start at the tempo that plays.
    public var seconds: Double
    /// The song's length in seconds at the tempo that plays.
    public var duration: Double
    /// Quarter notes per minute at the position.
    public var tempo: Double
    /// Whether `tempo` is an override (`transport` `tempo`) rather than the file's.
    public var tempoOverride: Bool
    /// The loop region as `BAR:BEAT` positions, when one is set.
    public var loop: LoopRegion?
    /// The MIDI clock the transport follows, when a node has `clock: follow`.
    public var clock: ClockFollow?
    /// Where the song stands in the playlist, when there is more than one song or a repeat.
    public var playlist: PlaylistPlace?
    /// `true` while a take is recorded (the record trigger, `record`); absent otherwise.
    public var recording: Bool?

    /// The loaded song's place in the playlist and the repeat mode.
    public struct PlaylistPlace: Hashable, Sendable, Codable {
        /// 1-based.
        public var song: Int
        public var count: Int
        /// `off`, `one` or `all`.
        public var `repeat`: String

        public init(song: Int, count: Int, repeat: String) {
            self.song = song
            self.count = count
            self.repeat = `repeat`
        }
    }

    public struct LoopRegion: Hashable, Sendable, Codable {
        public var from: String
        public var to: String

        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    /// The clock of an external node with `clock: follow`, as the transport hears it.
    public struct ClockFollow: Hashable, Sendable, Codable {
        /// The node's name.
        public var node: String
        /// Whether the master plays (between Start or Continue and Stop).
        public var running: Bool
        /// The master's tempo as measured (quarter notes per minute); `nil` while no clock comes.
        public var tempo: Double?
        /// How far its pulses arrive from where the tracking loop expects them, RMS (ms).
        public var jitter: Double?
        /// How far the transport was behind the master at its last correction (ms; negative: ahead).
        public var drift: Double?

        public init(node: String, running: Bool, tempo: Double?, jitter: Double?, drift: Double?) {
            self.node = node
            self.running = running
            self.tempo = tempo
            self.jitter = jitter
            self.drift = drift
        }
    }

    public init(state: String, song: String?, position: String, seconds: Double, duration: Double, tempo: Double,
                tempoOverride: Bool, loop: LoopRegion?, clock: ClockFollow? = nil, playlist: PlaylistPlace? = nil,
                recording: Bool? = nil) {
        self.state = state
        self.song = song
        self.position = position
        self.seconds = seconds
        self.duration = duration
        self.tempo = tempo
        self.tempoOverride = tempoOverride
        self.loop = loop
        self.clock = clock
        self.playlist = playlist
        self.recording = recording
    }
}

/// `audio.record` parameters: `{"path":"/home/me/take.wav"}` starts recording what the
/// daemon plays to that WAV file (absolute, on the daemon's machine), `"node": "hall"` one
/// node's output instead of the master; `{"stop":true}` stops and writes it.
///
/// - Thread: any (a plain value).
public struct AudioRecordRequest: Hashable, Sendable, Codable {
    public var path: String?
    public var node: String?
    public var stop: Bool?

    public init(path: String? = nil, node: String? = nil, stop: Bool? = nil) {
        self.path = path
        self.node = node
        self.stop = stop
    }
}

/// What `audio.record` answers: the file, whether it is still recording, and when stopped
/// its length and the frames lost (the disk fell seconds behind).
///
/// - Thread: any (a plain value).
public struct AudioRecordingSummary: Hashable, Sendable, Codable {
    public var path: String
    public var recording: Bool
    /// The node recorded (absent: the master output).
    public var node: String?
    public var seconds: Double?
    public var droppedFrames: Int?

    public init(path: String, recording: Bool, node: String? = nil, seconds: Double? = nil, droppedFrames: Int? = nil) {
        self.path = path
        self.recording = recording
        self.node = node
        self.seconds = seconds
        self.droppedFrames = droppedFrames
    }
}
