import Control
import Hub
import RtMidiBackend

/// The JACK MIDI ports the daemon sees, as the hub's `PortDescriptor`s, so that rules,
/// selectors and routes treat them like ALSA ports.
///
/// A JACK port `CLIENT:PORT` becomes a descriptor with client name `jack` and port name
/// `CLIENT:PORT`, so the selector `jack:CLIENT:PORT` (and globs like `jack:*` or
/// `"jack:fluidsynth:*"`) matches it and its identity (`client:jack / CLIENT:PORT`)
/// survives JACK server restarts. Its address is `C:N` with `C` = `jackClient` + the
/// JACK client's number, outside ALSA's 0…255 client range: each JACK client gets its own
/// hub client number (so rules, which never connect a client to itself, connect two JACK
/// clients but not a client to itself), and each JACK port its own `N`. Both are given
/// once per name and never reused.
///
/// - Thread: owner (the state's owner, the MIDI input thread); a plain value.
struct JackPortTable {
    /// The hub client number of the first JACK client (the others follow): not an ALSA
    /// client number.
    static let jackClient = 1000
    /// The client name JACK ports carry among the hub's ports (the namespace prefix).
    static let jackClientName = "jack"

    /// Ports present now: JACK sources (outputs) first, then destinations, in JACK's order.
    private(set) var descriptors: [PortDescriptor] = []
    private var addresses: [JackPortName: PortAddress] = [:]
    private var clientNumbers: [Substring: Int] = [:]
    private var portCounts: [Int: Int] = [:]
    private var names: [PortAddress: JackPortName] = [:]

    /// What one update changed.
    struct Changes: Equatable {
        var appeared: [PortDescriptor] = []
        var left: [PortDescriptor] = []
        var isEmpty: Bool { appeared.isEmpty && left.isEmpty }
    }

    /// Replaces the table with `list` (the daemon's own JACK ports left out: `JackWatch`).
    /// - Returns: the ports that appeared and those that left since the last update.
    mutating func update(_ list: JackPortList) -> Changes {
        let before = descriptors
        let listed = list.sources.map { ($0, PortDirection.output) } + list.destinations.map { ($0, PortDirection.input) }
        descriptors = listed.map { name, direction in
            descriptor(for: name, direction: direction)
        }
        let beforeSet = Set(before), afterSet = Set(descriptors)
        return Changes(appeared: descriptors.filter { !beforeSet.contains($0) }, left: before.filter { !afterSet.contains($0) })
    }

    /// The JACK name of the port at `address` (`nil`: not a present JACK port).
    func jackName(at address: PortAddress) -> JackPortName? {
        guard descriptors.contains(where: { $0.address == address }) else { return nil }
        return names[address]
    }

    /// True for a hub address in the JACK range (never an ALSA port).
    static func isJack(_ address: PortAddress) -> Bool {
        address.client >= jackClient
    }

    /// `jack:CLIENT:PORT` for a JACK descriptor, `nil` for an ALSA one.
    static func hubName(of descriptor: PortDescriptor) -> String? {
        isJack(descriptor.address) ? Endpoint.jack(descriptor.portName).description : nil
    }

    private mutating func descriptor(for name: JackPortName, direction: PortDirection) -> PortDescriptor {
        let address = addresses[name] ?? newAddress(for: name)
        addresses[name] = address
        names[address] = name
        return PortDescriptor(address: address, clientName: Self.jackClientName, portName: name.fullName,
                              portClass: .app, direction: direction)
    }

    private mutating func newAddress(for name: JackPortName) -> PortAddress {
        let client = clientNumbers[name.client] ?? Self.jackClient + clientNumbers.count
        clientNumbers[name.client] = client
        let port = portCounts[client, default: 0]
        portCounts[client] = port + 1
        return PortAddress(client: client, port: port)
    }
}
