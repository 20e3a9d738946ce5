import ALSA
import Control
import Hub

/// The ports and connections as the control protocol shows them (`ports.list`,
/// `connections.list`, the `port-*` and `connected` events) and as the log names them.
extension PortCatalog {
    /// `port` as `ports.list` shows it.
    /// - Thread: any (a plain value).
    func summary(_ port: PortDescriptor) -> PortSummary {
        if JackPortTable.isJack(port.address) { return jackSummary(port) }
        let info = infos[port.address]
        let direction: PortSummary.Direction = switch port.direction {
        case .output: .source
        case .input: .destination
        case .duplex: .duplex
        }
        return PortSummary(address: port.address.description, client: port.address.client, port: port.address.port,
                           clientName: port.clientName, portName: port.portName, direction: direction,
                           kind: port.portClass == .hardware ? .hardware : .app, card: info?.card,
                           cardName: port.cardLongName ?? info?.cardName, usbPath: port.usbPath, serial: port.serial,
                           connectedTo: (info?.connectedTo ?? []).map(\.description),
                           connectedFrom: (info?.connectedFrom ?? []).map(\.description))
    }

    /// A JACK port as `ports.list` shows it: `jack:CLIENT:PORT`, linked to what the bridge carries.
    private func jackSummary(_ port: PortDescriptor) -> PortSummary {
        let name = JackPortTable.hubName(of: port) ?? port.portName
        let jackClient = String(port.portName.prefix { $0 != ":" })
        let links = connections.filter { $0.source == port.address }
        return PortSummary(address: name, client: nil, port: nil, clientName: jackClient,
                           portName: String(port.portName.dropFirst(jackClient.count + 1)),
                           direction: port.direction == .output ? .source : .destination, kind: .app,
                           card: nil, cardName: nil, connectedTo: links.map { hubName(of: $0.destination) }.sorted(),
                           connectedFrom: [])
    }

    /// `connection` between the hub's names of its ends.
    /// - Thread: any (a plain value).
    func connectionSummary(_ connection: Connection) -> ConnectionSummary {
        ConnectionSummary(source: hubName(of: connection.source), destination: hubName(of: connection.destination))
    }

    /// `jack:CLIENT:PORT` for a JACK port, `client:port` for an ALSA one.
    /// - Thread: any (a plain value).
    func hubName(of address: PortAddress) -> String {
        descriptor(at: address).flatMap(JackPortTable.hubName) ?? address.description
    }

    /// The log's name of `port`: `20:0 'client:port' [device]`, or `jack:CLIENT:PORT`.
    /// - Thread: any (a plain value).
    func describe(_ port: PortDescriptor) -> String {
        if let name = JackPortTable.hubName(of: port) { return name }
        return "\(port.address) '\(port.clientName):\(port.portName)' [\(port.identity.device)]"
    }
}
