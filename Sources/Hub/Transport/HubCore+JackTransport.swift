import MIDICore
import Transport

/// JACK transport in (docs/jack.md#jack-transport): with the patch's `transport: follow`,
/// JACK's transport starting plays the song from where JACK's is, stopping stops it there,
/// and a locate moves it (while rolling: it plays on from there). JACK's position in seconds
/// is the song's time through its tempo map. The hub plays into JACK on JACK's own clock,
/// so once started the two stay together: nothing is steered, as a MIDI clock's song is.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// Takes JACK's transport as it changed: `rolling` at `seconds` from its start.
    mutating func followJackTransport(rolling: Bool, seconds: Double, clock: TransportClock) -> [HubEffect] {
        guard jackTransport == .follow, let song = transport.player.song else { return [] }
        let tick = song.tempoMap.tick(after: HostDuration(seconds: max(seconds, 0)))
        if rolling { return followMaster(.play(from: tick, dropFirst: true), clock: clock) }
        if transport.player.state == .playing { return followMaster(.stop(at: tick), clock: clock) }
        return followMaster(.locate(tick), clock: clock)
    }
}
