import Control
import FuzzSupport
import OSC
import OSCSurface

/// The address space a fuzzed message is asked of: a node with a parameter, a scene, a trigger.
let space = OSCAddressSpace(
    nodes: [NodeSummary(id: "synth", name: "synth", kind: "instrument", subtype: "msyn", manufacturer: "mhub", version: "1.0.0",
                        parameters: [ParameterSummary(id: 0, name: "volume", min: 0, max: 2, default: 1, unit: "generic", value: 1)])],
    scenes: [SceneSummary(name: "big chorus", program: 2, current: false, values: [])],
    triggers: [TriggerSummary(name: "panic", action: "panic", state: "ready")])

/// libFuzzer entry: reading any bytes as an OSC packet throws or succeeds, never traps; a
/// packet read writes back to bytes that read as the same packet (NaN floats compared by
/// their bytes); every message's address, taken as a pattern, matches itself and stays
/// bounded against the input's text, and what it asks of the hub's address space is a
/// request or a refusal. The same bytes as a TCP stream (size-prefixed or SLIP, as their
/// first byte says) give packets no larger than the limit, or a refusal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSCPacket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes.prefix(256), as: UTF8.self)
    _ = OSCAddressPattern(text).matches(String(decoding: bytes.suffix(256), as: UTF8.self))
    var stream = OSCStreamDecoder()
    stream.append(bytes)
    while let framed = try? stream.nextPacket() {
        require(framed.count <= OSCPacket.maximumSize, "a stream gave a packet over the limit")
    }
    guard let packet = try? OSCPacket(decoding: bytes) else { return 0 }
    let written = packet.encoded()
    guard let again = try? OSCPacket(decoding: written) else { fatalError("a packet read writes back to bytes that do not read") }
    require(again.encoded() == written, "a packet read writes back to a different packet")
    for (message, _) in packet.messages where !message.address.contains("\0") {
        let pattern = OSCAddressPattern(message.address)
        require(!pattern.isLiteral || message.address.utf8.count > OSCAddressPattern.maximumLength || pattern.matches(message.address),
                "an address without pattern characters does not match itself")
        _ = try? space.requests(for: message)
    }
    return 0
}
