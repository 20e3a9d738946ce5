import MIDICore
import Transport

/// The transport's state in the core (docs/transport.md): the song and where it plays, the
/// playlist, the MIDI clock it follows, the take being recorded, and the song's beats for the
/// generating processors. `HubCore+Transport`, `+ClockFollow` and `+Takes` change it; times
/// are on the transport's clock (`TransportClock`) unless named monotonic.
///
/// - Thread: owner (a plain value inside `HubCore`).
public struct HubTransport {
    /// The sequence loaded and where it plays.
    public internal(set) var player = SongPlayer()
    public internal(set) var playlist = Playlist()
    /// The MIDI clock the transport follows (`clock: follow`).
    public internal(set) var clockFollower = ClockFollower()
    /// How far behind the master the transport was when last steered (seconds).
    public internal(set) var clockDrift: Double?
    /// When the song was last steered toward the master, and the hub's tempo last followed
    /// it (the monotonic clock).
    var lastClockSteer = HostTime.distantPast
    var lastClockTempoChange = HostTime.distantPast
    /// Whether the clock was frames rendered when the transport last ran, and its reading then.
    var onAudioClock = false
    var lastClock = TransportTime.origin
    /// The clock read last (a turn ago at most): the live take places messages with it.
    var clock = TransportClock(now: 0)
    /// What the master clock said this turn, done at the turn's tick (`takeMasterCues`).
    var masterCues: [ClockFollower.Cue] = []
    /// The song's beats for the generating processors, from each timeline point's time
    /// (monotonic) on; `nil`: the hub's clock (`HubCore.generate`).
    var songClocks: [(time: HostTime, clock: TempoClock?)] = []
    /// The source the sequence's events are routed from, resolved for the current graph.
    var sequenceSender: MIDIRouter.Sender?
    /// The take the record trigger records when on, when it started (the monotonic clock) and
    /// each port's source index in it.
    public internal(set) var recording: MIDIRecording?
    var recordingStart = HostTime.zero
    var recordingSources: [PortAddress: Int] = [:]
    /// A take recorded onto the playing song.
    public internal(set) var overdub: Overdub?

    /// - Thread: owner.
    public init() {}

    /// Whether a take is being recorded (the `record` trigger shows it).
    /// - Thread: owner.
    public var isRecording: Bool { recording != nil || overdub != nil }
}
