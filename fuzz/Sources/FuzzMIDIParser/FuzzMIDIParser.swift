import FuzzSupport
import MIDICore

/// libFuzzer entry: the parser never traps, and feeding the input in pieces (sizes
/// taken from the first byte) gives the same messages and counts as feeding it whole.
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
    return 0
}
