import FuzzSupport
import OSC

/// libFuzzer entry: reading any bytes as an OSC packet throws or succeeds, never traps; a
/// packet read writes back to bytes that read as the same packet (NaN floats compared by
/// their bytes); every message's address, taken as a pattern, matches itself and stays
/// bounded against the input's text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOSCPacket(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes.prefix(256), as: UTF8.self)
    _ = OSCAddressPattern(text).matches(String(decoding: bytes.suffix(256), as: UTF8.self))
    guard let packet = try? OSCPacket(decoding: bytes) else { return 0 }
    let written = packet.encoded()
    guard let again = try? OSCPacket(decoding: written) else { fatalError("a packet read writes back to bytes that do not read") }
    require(again.encoded() == written, "a packet read writes back to a different packet")
    for (message, _) in packet.messages where !message.address.contains("\0") {
        let pattern = OSCAddressPattern(message.address)
        require(!pattern.isLiteral || message.address.utf8.count > OSCAddressPattern.maximumLength || pattern.matches(message.address),
                "an address without pattern characters does not match itself")
    }
    return 0
}
