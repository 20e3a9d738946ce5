/// One sequencer port as listed by `SeqClient.ports()`: who owns it, which way
/// MIDI flows, whether it is hardware, its card and its current subscriptions.
///
/// - Thread: any (a plain value).
public struct SeqPortInfo: Hashable, Sendable {
    public var address: SeqAddress
    public var clientName: String
    public var portName: String
    /// The port's capability bits (`SND_SEQ_PORT_CAP_*`).
    public var capabilities: SeqPort.Capabilities
    /// The port's type bits (`SND_SEQ_PORT_TYPE_*`).
    public var types: SeqPort.Types
    public var clientType: ClientType
    /// The sound card of a kernel client (`snd_seq_client_info_get_card`), `nil` for none.
    public var card: Int?
    /// The card's name (`snd_card_get_name`), `nil` without a card.
    public var cardName: String?
    /// Ports this port sends to (its read subscriptions).
    public var connectedTo: [SeqAddress]
    /// Ports this port receives from (its write subscriptions).
    public var connectedFrom: [SeqAddress]

    public init(address: SeqAddress, clientName: String, portName: String,
                capabilities: SeqPort.Capabilities, types: SeqPort.Types = [.midiGeneric],
                clientType: ClientType = .user, card: Int? = nil, cardName: String? = nil,
                connectedTo: [SeqAddress] = [], connectedFrom: [SeqAddress] = []) {
        self.address = address
        self.clientName = clientName
        self.portName = portName
        self.capabilities = capabilities
        self.types = types
        self.clientType = clientType
        self.card = card
        self.cardName = cardName
        self.connectedTo = connectedTo
        self.connectedFrom = connectedFrom
    }

    /// A kernel client (drivers: USB MIDI, virmidi, Midi Through, System) or a user-space app.
    public enum ClientType: String, Hashable, Sendable {
        case kernel, user
    }

    /// Which way events flow, seen from the other clients.
    public enum Direction: String, Hashable, Sendable {
        /// Readable: others subscribe to receive what it sends.
        case source
        /// Writable: others send to it.
        case destination
        case duplex
        /// Neither readable nor writable by others.
        case none
    }

    public var direction: Direction {
        switch (isReadable, isWritable) {
        case (true, true): .duplex
        case (true, false): .source
        case (false, true): .destination
        case (false, false): .none
        }
    }

    /// Others may read from it (subscribe to it as a source).
    public var isReadable: Bool { capabilities.isSuperset(of: [.read, .subscribeRead]) }
    /// Others may write to it (subscribe to it as a destination).
    public var isWritable: Bool { capabilities.isSuperset(of: [.write, .subscribeWrite]) }

    /// Hardware: a kernel client's port or a port typed `SND_SEQ_PORT_TYPE_HARDWARE`;
    /// otherwise an application's port.
    public var isHardware: Bool { clientType == .kernel || types.contains(.hardware) }

    /// The System client (0): timer and announce ports.
    public var isSystem: Bool { address.client == 0 }
}
