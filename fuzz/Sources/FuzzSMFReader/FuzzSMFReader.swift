import FuzzSupport
import MIDICore

/// libFuzzer entry: any bytes either fail with an `SMFError` or read into a file
/// that writes and reads back unchanged; the tempo map and merge never trap on it.
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
    let seconds = map.seconds(atTick: end)
    require(seconds >= 0 && map.tick(atSeconds: seconds) >= 0, "negative time at the end: \(seconds) s")
    let position = map.barBeat(atTick: end)
    _ = map.tick(bar: position.bar, beat: position.beat)
    require(file.mergedEvents().count == file.tracks.reduce(0) { $0 + $1.events.count }, "merging lost or added events")
    return 0
}
