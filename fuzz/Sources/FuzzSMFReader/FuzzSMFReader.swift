import FuzzSupport
import MIDICore
import Transport

/// libFuzzer entry: any bytes either fail with an `SMFError` or read into a file
/// that writes and reads back unchanged; the tempo map and merge never trap on it; the
/// daemon's transport plays it to the end (`checkTransport`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMFReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let file = try? MIDIFile(smf: bytes) else { return 0 }

    let rewritten = file.smfBytes()
    guard let reread = try? MIDIFile(smf: rewritten), reread == file else {
        fatalError("read → write → read changed the file")
    }

    let map = TempoMap(file: file)
    let end = file.durationTicks
    let length = map.duration(at: end)
    require(length >= .zero, "negative time at the end: \(length.nanoseconds) ns")
    require(map.tick(after: length) <= end, "the end's time leads past the end: \(map.tick(after: length)) > \(end)")
    let position = map.barBeat(atTick: end)
    _ = map.tick(bar: position.bar, beat: position.beat)
    require(file.mergedEvents().count == file.tracks.reduce(0) { $0 + $1.events.count }, "merging lost or added events")
    checkTransport(file, position: String(decoding: bytes.suffix(12), as: UTF8.self))
    return 0
}

/// What `transport load` gets over the socket: the transport plays the file to its end in
/// fifty steps, handing out everything in time order and ending every note it started; a
/// seek to a position named by the input's last bytes stays inside the song.
func checkTransport(_ file: MIDIFile, position: String) {
    let song = Song(file: file, name: "fuzz.mid")
    if let tick = TransportPosition(parsing: position).tick(in: song) {
        require(tick <= song.endTick, "position '\(position)' past the end: \(tick) > \(song.endTick)")
    }
    guard song.refusal(path: "fuzz.mid") == nil else { return }  // the daemon refuses it: nothing plays
    var player = SongPlayer()
    _ = player.load(song, at: 0)
    var handed = player.play(at: 0) ?? []
    let length = player.duration(atTick: song.endTick)
    require(length >= .zero, "the song lasts \(length.nanoseconds) ns")
    for step in 1...50 where player.state == .playing {
        handed += player.due(until: TransportTime(sinceOrigin: HostDuration(nanoseconds: length.nanoseconds / 50 * Int64(step) + 1_000_000_000)))
    }
    require(player.state == .stopped, "the transport still plays after the song's end")
    require(zip(handed, handed.dropFirst()).allSatisfy { $0.time <= $1.time }, "events out of time order")
    var held = [Int](repeating: 0, count: 16 * 128)
    for event in handed {
        switch event.message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0: held[Int(channel) * 128 + Int(note)] += 1
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _): held[Int(channel) * 128 + Int(note)] -= 1
        default: continue
        }
    }
    require(held.allSatisfy { $0 <= 0 }, "a note the transport started never ended")
}
