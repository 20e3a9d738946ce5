import FuzzSupport
import MIDICore
import Transport

/// libFuzzer entry: the parser never traps, and feeding the input in pieces (sizes
/// taken from the first byte) gives the same messages and counts as feeding it whole;
/// a clock follower fed the messages at hostile times keeps its tempo and position sane
/// (`checkClockFollow`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMIDIParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = MIDIParser(maxSysExLength: 64)
    let expected = whole.parse(bytes)

    var pieces = MIDIParser(maxSysExLength: 64)
    var messages: [MIDIMessage] = []
    let step = Int(bytes.first ?? 1) % 7 + 1
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + step)
        pieces.feed(bytes[start..<end]) { messages.append($0) }
        start = end
    }
    require(messages == expected, "split feeding changed the messages")
    require(pieces.skippedBytes == whole.skippedBytes && pieces.truncatedMessages == whole.truncatedMessages,
            "split feeding changed the skipped or truncated counts")

    var reparser = MIDIParser(maxSysExLength: 64)
    require(reparser.parse(expected.flatMap(\.bytes)) == expected, "re-encoded messages parse differently")
    checkClockFollow(expected, gaps: bytes)
    return 0
}

/// What a MIDI clock master on `clock: follow` sends: each message comes 0–127.5 ms after
/// the last (the gaps from the input's bytes, zero included); the measured tempo stays in
/// 10…1000 BPM, the jitter and the master's position finite, every cue's pulse at or after 0.
func checkClockFollow(_ messages: [MIDIMessage], gaps: [UInt8]) {
    var follower = ClockFollower()
    var time = HostTime.zero
    for (index, message) in messages.enumerated() {
        time += .milliseconds(Int64(gaps.isEmpty ? 0 : gaps[index % gaps.count] & 0x7F))
        for cue in [follower.receive(message, at: time), follower.check(at: time)].compactMap(\.self) {
            switch cue {
            case .play(let pulse, _), .stop(let pulse, _), .locate(let pulse): require(pulse >= 0, "a cue at pulse \(pulse)")
            }
        }
        if let tempo = follower.beatsPerMinute { require((9.999...1000.001).contains(tempo), "tempo \(tempo) BPM") }
        require(follower.jitter.isFinite && follower.jitter >= 0, "jitter \(follower.jitter)")
        if let pulse = follower.masterPulse(at: time) { require(pulse.isFinite, "the master at pulse \(pulse)") }
    }
}
