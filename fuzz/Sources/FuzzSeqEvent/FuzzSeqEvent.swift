@testable import ALSA
import FuzzSupport
import MIDICore

/// libFuzzer entry: bytes as a read from the ALSA sequencer (events as any client may
/// send them, SysEx in pieces from several sources). Decoding never traps; every message
/// decoded is valid MIDI (its bytes parse back to it, SysEx aside) and survives the trip
/// through an event and back; a joined SysEx is no longer than the assembler's limit plus
/// one piece.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSeqEvent(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var sysEx = SysExAssembler()
    let events = SeqEventWire.decode(UnsafeRawBufferPointer(start: data, count: size), sysEx: &sysEx)
    for event in events {
        guard case .message(let message, let source, _) = event else { continue }
        if case .sysEx(let payload) = message {
            require(payload.count <= SysExAssembler.maximumLength + size, "a SysEx of \(payload.count) bytes")
        } else {
            var parser = MIDIParser(maxSysExLength: 16)
            require(parser.parse(message.bytes) == [message], "\(message) is not valid MIDI")
        }
        var fresh = SysExAssembler()
        let wire = SeqEventWire.bytes(for: message, from: source)
        let again = wire.withUnsafeBytes { SeqEventWire.decode($0, sysEx: &fresh) }
        guard case .message(let back, let backSource, _)? = again.first, again.count == 1 else {
            fatalError("\(message) did not come back from its event: \(again)")
        }
        require(back == message && backSource == source, "\(message) came back as \(back) from \(backSource)")
    }
    return 0
}
