/// The resolved `MIDIRouter.Sender` of each sending port, with the last one used kept beside
/// the table: a stream from one port (the usual case) finds its sender without hashing the
/// address per event.
///
/// - Thread: owner (a plain value inside `HubCore`).
struct SenderCache {
    private var byAddress: [PortAddress: MIDIRouter.Sender] = [:]
    private var last: (address: PortAddress, sender: MIDIRouter.Sender)?

    /// The sender kept for `address`, if any (it may be of an older graph: check `isCurrent`).
    mutating func sender(at address: PortAddress) -> MIDIRouter.Sender? {
        if let last, last.address == address { return last.sender }
        guard let sender = byAddress[address] else { return nil }
        last = (address, sender)
        return sender
    }

    mutating func keep(_ sender: MIDIRouter.Sender, for address: PortAddress) {
        byAddress[address] = sender
        last = (address, sender)
    }

    /// Forgets every sender (the port list changed).
    mutating func removeAll() {
        byAddress = [:]
        last = nil
    }
}
