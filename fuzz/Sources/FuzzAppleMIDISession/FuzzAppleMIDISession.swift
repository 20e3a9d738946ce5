import FuzzSupport
@testable import RTPMIDI

/// libFuzzer entry: Apple's session commands and a session host fed hostile datagrams.
/// Decoding any bytes as a session command throws or succeeds, never traps, and a decoded
/// command re-encodes to bytes that decode to it. A host fed the input as a stream of
/// datagrams (each byte pair: a length and which port and peer it came from), with its
/// clock moving, keeps at most its maximum of sessions and answers each datagram with a
/// bounded number of effects.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppleMIDISession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let command = try? AppleMIDICommand(decoding: bytes) {
        require((try? AppleMIDICommand(decoding: command.encoded())) == command, "a session command does not round-trip")
    }
    var host = SessionHost(name: "fuzz", ssrc: 0x1234_5678)
    let (invited, _) = host.invite(PeerAddress(host: "10.0.0.2", port: 5004), now: 0)
    var offset = 0, now: UInt64 = 0
    while offset + 2 <= bytes.count {
        let length = Int(bytes[offset]), origin = bytes[offset + 1]
        offset += 2
        let datagram = Array(bytes[offset..<min(bytes.count, offset + length)])
        offset += length
        now += UInt64(origin) * 50_000
        let address = PeerAddress(host: "10.0.0.\(origin & 0x03)", port: 5004 + UInt16(origin >> 2 & 0x01))
        let effects = host.receive(datagram, via: origin & 0x10 == 0 ? .control : .data, from: address, now: now)
            + host.tick(now: now) + host.send([.noteOn(channel: 0, note: 60, velocity: 1)], to: invited, now: now)
        require(effects.count <= 4 * SessionHost.maximumSessions + 8, "\(effects.count) effects for one datagram")
        require(host.summaries.count <= SessionHost.maximumSessions, "\(host.summaries.count) sessions")
    }
    return 0
}
