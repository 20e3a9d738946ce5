import MIDICore
/// Playing in step with a MIDI clock master (`ClockFollower`).
///
/// - Thread: owner (a plain value the daemon's owner holds).
extension SongPlayer {
    /// Steers the tempo toward a master clock: the master is at `masterTick` at `time` and
    /// moves at `beatsPerMinute`. From the end of what was handed out, the player plays at the
    /// tempo that meets the master's line `catchUp` seconds later (between half and twice the
    /// master's tempo), so its phase locks to the master's without a jump.
    /// - Returns: how far the player was behind the master (ticks; negative: ahead) where
    ///   the new tempo begins, or `nil` when it does not play.
    @discardableResult
    public mutating func follow(masterTick: Double, at time: TransportTime, beatsPerMinute: Double,
                                catchUp: Double = 0.25) -> Double? {
        guard state == .playing, let song else { return nil }
        let ticksPerSecond = beatsPerMinute / 60 * Double(song.tempoMap.ticksPerQuarter)
        let from = max(scheduledUntil, time)
        let behind = masterTick + (from - time).seconds * ticksPerSecond - position(at: from).ticks
        let tempo = beatsPerMinute * (1 + behind / (catchUp * ticksPerSecond))
        overrideTempo(min(max(tempo, beatsPerMinute / 2), beatsPerMinute * 2), at: time)
        return behind
    }
}
