import Transport

/// What moves the transport (docs/transport.md), as `HubInput.transport` carries it with the
/// clock read for it. Positions are as the user wrote them (`BAR`, `BAR:BEAT`, `SECONDSs`, a
/// marker's name).
///
/// - Thread: any (a plain value).
public enum TransportInput: Sendable {
    /// Load these songs as the playlist (a `load` is a playlist of one), stopped at the first's start.
    case load([Song])
    case play
    case pause
    case stop
    case seek(String?)
    /// Set a loop region; both `nil`: clear it.
    case loop(from: String?, to: String?)
    /// Override the tempo (quarter notes per minute); `nil`: the file's again.
    case tempo(Double?)
    case next
    case previous
    /// What comes after a song's end: `off`, `one` or `all`.
    case repeatMode(String?)
    /// End a take in progress; while the song plays, overdub at once; stopped, count in
    /// this many bars, then play and overdub. `stamp` names a take ended now (the local
    /// time, `2026-11-25-183012`: the core has no wall clock).
    case record(countIn: Int, stamp: String)
    /// The record trigger: start a take (an overdub while a song plays) or end it and write it.
    case toggleRecording(stamp: String)
}
