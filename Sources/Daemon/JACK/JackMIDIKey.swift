import Hub

/// A JACK port's hub address as the key `JackMIDILane` knows its source by, and back.
///
/// - Thread: any.
enum JackMIDIKey {
    static func key(_ address: PortAddress) -> Int { address.client << 20 | address.port }
    static func address(_ key: Int) -> PortAddress { PortAddress(client: key >> 20, port: key & 0xF_FFFF) }
}
