import ALSA
import Control

extension PortSummary {
    /// The control protocol's summary of an ALSA sequencer port, as `midihub ports --json`
    /// prints it: hardware for kernel clients, app for programs; `card` tells its USB path and serial.
    /// - Thread: any.
    public init(_ port: SeqPortInfo, card: SoundCardInfo? = nil) {
        let direction: Direction = switch port.direction {
        case .source: .source
        case .destination: .destination
        case .duplex: .duplex
        case .none: .none
        }
        self.init(address: port.address.description, client: Int(port.address.client), port: Int(port.address.port),
                  clientName: port.clientName, portName: port.portName, direction: direction,
                  kind: port.isHardware ? .hardware : .app, card: port.card, cardName: port.cardName,
                  usbPath: card?.usbPath, serial: card?.serial,
                  connectedTo: port.connectedTo.map(\.description), connectedFrom: port.connectedFrom.map(\.description))
    }
}
