/// One MIDI port the daemon sees: an ALSA sequencer port or a JACK MIDI port.
/// The JSON has the fields of `midihub ports --json` (absent ones as `null`).
///
/// - Thread: any (a plain value).
public struct PortSummary: Hashable, Sendable, Codable {
    /// Which way MIDI flows: a `source` sends (others read from it), a
    /// `destination` receives, a `duplex` port does both; `none` is a port no other
    /// client may connect to (`midihub ports` lists it, the daemon never routes it).
    public enum Direction: String, Hashable, Sendable, Codable {
        case source, destination, duplex, none
    }

    /// `hardware` for kernel ports (USB MIDI, virtual raw MIDI, Midi Through), `app` for programs.
    public enum Kind: String, Hashable, Sendable, Codable {
        case hardware, app
    }

    /// `client:port` for ALSA (`"20:0"`), `jack:NAME` for JACK.
    public var address: String
    /// The ALSA client number; `nil` for JACK ports.
    public var client: Int?
    /// The ALSA port number; `nil` for JACK ports.
    public var port: Int?
    public var clientName: String
    public var portName: String
    public var direction: Direction
    public var kind: Kind
    /// The sound card number of a hardware port, when ALSA tells it.
    public var card: Int?
    public var cardName: String?
    /// The USB path of a USB device's port (`usb-1-2.4`: the socket it is in), for `usb:` selectors.
    public var usbPath: String?
    /// The USB serial number, when the device reports one, for `serial:` selectors.
    public var serial: String?
    /// Addresses this port sends to.
    public var connectedTo: [String]
    /// Addresses this port receives from.
    public var connectedFrom: [String]

    public init(
        address: String, client: Int? = nil, port: Int? = nil, clientName: String, portName: String,
        direction: Direction, kind: Kind, card: Int? = nil, cardName: String? = nil,
        usbPath: String? = nil, serial: String? = nil, connectedTo: [String] = [], connectedFrom: [String] = []
    ) {
        self.address = address
        self.client = client
        self.port = port
        self.clientName = clientName
        self.portName = portName
        self.direction = direction
        self.kind = kind
        self.card = card
        self.cardName = cardName
        self.usbPath = usbPath
        self.serial = serial
        self.connectedTo = connectedTo
        self.connectedFrom = connectedFrom
    }

    private enum CodingKeys: String, CodingKey {
        case address, client, port, clientName, portName, direction, kind, card, cardName, usbPath, serial, connectedTo
        case connectedFrom
    }

    /// Writes every field, absent ones as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(address, forKey: .address)
        try container.encode(client, forKey: .client)
        try container.encode(port, forKey: .port)
        try container.encode(clientName, forKey: .clientName)
        try container.encode(portName, forKey: .portName)
        try container.encode(direction, forKey: .direction)
        try container.encode(kind, forKey: .kind)
        try container.encode(card, forKey: .card)
        try container.encode(cardName, forKey: .cardName)
        try container.encode(usbPath, forKey: .usbPath)
        try container.encode(serial, forKey: .serial)
        try container.encode(connectedTo, forKey: .connectedTo)
        try container.encode(connectedFrom, forKey: .connectedFrom)
    }
}
