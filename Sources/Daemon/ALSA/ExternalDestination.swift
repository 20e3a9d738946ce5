import ALSA
import Hub

/// Where an external node's MIDI goes, resolved once per graph or port change (`RouteCache`).
///
/// - Thread: any (a plain value).
enum ExternalDestination {
    /// An ALSA sequencer port, addressed directly from midihub's output port.
    case alsa(SeqAddress)
    /// A JACK port, through the JACK bridge.
    case jack(PortAddress)

    /// The destination of `port`; `nil` for an address ALSA cannot have.
    init?(_ port: PortAddress) {
        if JackPortTable.isJack(port) {
            self = .jack(port)
        } else if let address = SeqAddress(port) {
            self = .alsa(address)
        } else {
            return nil
        }
    }
}
