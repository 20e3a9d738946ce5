import ALSA
import Hub

/// The ports the daemon sees, as the hub's `PortDescriptor`s, and the connections between
/// them: built from an ALSA port list, with card details read once per card, plus the JACK
/// ports and the connections the JACK bridge carries (`updateJack`).
///
/// - Thread: owner (the thread that owns the sequencer client); a plain value.
public struct PortCatalog: Sendable {
    public private(set) var descriptors: [PortDescriptor] = []
    public private(set) var connections: Set<Connection> = []
    /// The ALSA listing the descriptors came from, by address.
    public private(set) var infos: [PortAddress: SeqPortInfo] = [:]
    /// Application ports without capabilities, by address: nobody can subscribe to them,
    /// but they send to midihub:in directly (aplaymidi's port is one). Only for routing.
    public private(set) var directSenders: [PortAddress: PortDescriptor] = [:]
    private var alsaDescriptors: [PortDescriptor] = []
    private var alsaConnections: Set<Connection> = []
    private var jackDescriptors: [PortDescriptor] = []
    private var jackConnections: Set<Connection> = []
    private var cards: [Int: SoundCardInfo] = [:]
    private let cardReader: @Sendable (Int) -> SoundCardInfo

    /// - Parameter cardReader: card details by number (`SoundCardInfo.read` by default).
    public init(cardReader: @escaping @Sendable (Int) -> SoundCardInfo = { SoundCardInfo.read(card: $0) }) {
        self.cardReader = cardReader
    }

    /// Replaces the catalogue with `ports` (a `SeqClient.ports()` listing). Ports that are
    /// neither readable nor writable (kept apart as `directSenders` when they are an app's),
    /// the System client's, and those of a card that is being removed (no longer in
    /// `/proc/asound/cards`: its identity is about to change) are left out.
    public mutating func update(_ ports: [SeqPortInfo]) {
        directSenders = Dictionary(ports.filter { $0.direction == .none && !$0.isSystem && $0.card == nil }
            .map { (PortAddress($0.address), descriptor(for: $0)) }) { first, _ in first }
        let listed = ports.filter { $0.direction != .none && !$0.isSystem }
        let liveCards = Set(listed.compactMap(\.card))
        cards = cards.filter { liveCards.contains($0.key) && $0.value.longName != nil }
        let described = listed.map { ($0, descriptor(for: $0)) }
        let usable = described.filter { port, _ in port.card.map { cards[$0]?.longName != nil } ?? true }.map(\.0)
        alsaDescriptors = described.filter { port, _ in usable.contains(port) }.map(\.1)
        infos = Dictionary(uniqueKeysWithValues: usable.map { (PortAddress($0.address), $0) })
        alsaConnections = Set(usable.flatMap { port in
            port.connectedTo.map { Connection(PortAddress(port.address), PortAddress($0)) }
        })
        merge()
    }

    /// Replaces the JACK ports and the connections the JACK bridge carries.
    mutating func updateJack(_ ports: [PortDescriptor], connections: Set<Connection>) {
        jackDescriptors = ports
        jackConnections = connections
        merge()
    }

    private mutating func merge() {
        descriptors = alsaDescriptors + jackDescriptors
        connections = alsaConnections.union(jackConnections)
    }

    /// Follows a subscription the kernel announced (made or broken) until the next listing,
    /// so the ports a list shows are connected as they are now without listing them again.
    mutating func announce(_ connection: Connection, connected: Bool) {
        guard let source = SeqAddress(connection.source), let destination = SeqAddress(connection.destination) else { return }
        if connected {
            alsaConnections.insert(connection)
        } else {
            alsaConnections.remove(connection)
        }
        infos[connection.source]?.connectedTo.removeAll { $0 == destination }
        infos[connection.destination]?.connectedFrom.removeAll { $0 == source }
        if connected {
            infos[connection.source]?.connectedTo.append(destination)
            infos[connection.destination]?.connectedFrom.append(source)
        }
        merge()
    }

    /// Forgets the details of `card` (it was unplugged; a different device may take its number).
    public mutating func forgetCard(_ card: Int) {
        cards[card] = nil
    }

    /// The listed port at `address`, if there is one.
    public func descriptor(at address: PortAddress) -> PortDescriptor? {
        descriptors.first { $0.address == address }
    }

    /// The port an event came from: a listed port or a direct sender.
    public func sender(at address: PortAddress) -> PortDescriptor? {
        descriptor(at: address) ?? directSenders[address]
    }

    private mutating func descriptor(for port: SeqPortInfo) -> PortDescriptor {
        var card: SoundCardInfo?
        if let number = port.card {
            card = cards[number] ?? cardReader(number)
            cards[number] = card
        }
        let direction: PortDirection = switch port.direction {
        case .source: .output
        case .destination: .input
        case .none: .output  // a direct sender
        default: .duplex
        }
        return PortDescriptor(address: PortAddress(port.address), clientName: port.clientName, portName: port.portName,
                              portClass: port.isHardware ? .hardware : .app, direction: direction,
                              cardLongName: card?.longName ?? port.cardName, usbPath: card?.usbPath, serial: card?.serial)
    }
}

extension PortAddress {
    /// The hub's address of an ALSA port.
    /// - Thread: any.
    public init(_ address: SeqAddress) {
        self.init(client: Int(address.client), port: Int(address.port))
    }
}

extension SeqAddress {
    /// The ALSA address of a hub port address (`nil` when out of ALSA's 0…255 range).
    /// - Thread: any.
    public init?(_ address: PortAddress) {
        guard let client = UInt8(exactly: address.client), let port = UInt8(exactly: address.port) else { return nil }
        self.init(client: client, port: port)
    }
}
