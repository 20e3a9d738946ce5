/// A sequencer port address, ALSA's `client:port` pair (numbers change across replugs).
///
/// - Thread: any (a plain value).
public struct PortAddress: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var client: Int
    public var port: Int

    public init(client: Int, port: Int) {
        self.client = client
        self.port = port
    }

    public var description: String { "\(client):\(port)" }

    public static func < (a: PortAddress, b: PortAddress) -> Bool { (a.client, a.port) < (b.client, b.port) }
}

/// Which way MIDI flows through a port, seen from the port's owner.
///
/// - Thread: any (a plain value).
public enum PortDirection: String, Hashable, Codable, Sendable {
    /// The port sends MIDI (ALSA: readable, subscribable for reading). It can be a connection's source.
    case output
    /// The port receives MIDI (ALSA: writable). It can be a connection's destination.
    case input
    /// Both.
    case duplex

    public var canSend: Bool { self != .input }
    public var canReceive: Bool { self != .output }
}

/// Whether a port belongs to a hardware device (a kernel client with a card) or to an application.
/// - Thread: any (a plain value).
public enum PortClass: String, Hashable, Codable, Sendable {
    case hardware
    case app
}

/// What the hub knows about one port; the daemon fills it from the ALSA or JACK port list.
///
/// - Thread: any (a plain value).
public struct PortDescriptor: Hashable, Codable, Sendable {
    public var address: PortAddress
    public var clientName: String
    public var portName: String
    public var portClass: PortClass
    public var direction: PortDirection
    /// The sound card's long name (e.g. "Novation Launchkey 25 at usb-0000:00:14.0-2, full speed").
    public var cardLongName: String?
    /// The USB topology path (e.g. "usb-0000:00:14.0-2").
    public var usbPath: String?
    /// The USB serial number, when the device reports one.
    public var serial: String?

    public init(address: PortAddress, clientName: String, portName: String, portClass: PortClass,
                direction: PortDirection, cardLongName: String? = nil, usbPath: String? = nil, serial: String? = nil) {
        self.address = address
        self.clientName = clientName
        self.portName = portName
        self.portClass = portClass
        self.direction = direction
        self.cardLongName = cardLongName
        self.usbPath = usbPath
        self.serial = serial
    }

    /// The identity that survives renumbering: serial, else USB path, else card long name, else client name;
    /// always with the port name.
    public var identity: PortIdentity {
        let device: String
        if let serial, !serial.isEmpty {
            device = "serial:" + serial
        } else if let usbPath, !usbPath.isEmpty {
            device = "usb:" + usbPath
        } else if let cardLongName, !cardLongName.isEmpty {
            device = "card:" + cardLongName
        } else {
            device = "client:" + clientName
        }
        return PortIdentity(device: device, portName: portName)
    }
}

/// A port's identity independent of ALSA client numbers (see ``PortDescriptor/identity``).
///
/// - Thread: any (a plain value).
public struct PortIdentity: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// `serial:…`, `usb:…`, `card:…` or `client:…`.
    public var device: String
    public var portName: String

    public init(device: String, portName: String) {
        self.device = device
        self.portName = portName
    }

    public var description: String { "\(device) / \(portName)" }

    public static func < (a: PortIdentity, b: PortIdentity) -> Bool { (a.device, a.portName) < (b.device, b.portName) }
}
