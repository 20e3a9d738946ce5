import ALSA
import Hub
import Testing
@testable import Daemon

/// The port catalog follows the subscriptions the kernel announces between two listings, so
/// `ports.list` and `connections.list`, built from the published view, show a connection
/// another program made (`aconnect`) without the MIDI thread listing the ports again.
@Suite struct PortCatalogAnnounceTests {
    static let keyboard = SeqAddress(client: 20, port: 0), synth = SeqAddress(client: 128, port: 0)

    static func catalog() -> PortCatalog {
        var catalog = PortCatalog(cardReader: { _ in SoundCardInfo(longName: nil) })
        catalog.update([
            SeqPortInfo(address: keyboard, clientName: "Keys", portName: "out", capabilities: .source),
            SeqPortInfo(address: synth, clientName: "Synth", portName: "in", capabilities: .destination),
        ])
        return catalog
    }

    @Test func anAnnouncedSubscriptionIsListedAndAnEndedOneIsNot() throws {
        var catalog = Self.catalog()
        let connection = Connection(PortAddress(Self.keyboard), PortAddress(Self.synth))
        #expect(catalog.connections.isEmpty)
        catalog.announce(connection, connected: true)
        #expect(catalog.connections == [connection])
        let keys = try #require(catalog.descriptor(at: PortAddress(Self.keyboard)))
        let synth = try #require(catalog.descriptor(at: PortAddress(Self.synth)))
        #expect(catalog.summary(keys).connectedTo == ["128:0"])
        #expect(catalog.summary(synth).connectedFrom == ["20:0"])
        catalog.announce(connection, connected: true)  // announced twice: listed once
        #expect(catalog.summary(keys).connectedTo == ["128:0"])
        catalog.announce(connection, connected: false)
        #expect(catalog.connections.isEmpty)
        #expect(catalog.summary(keys).connectedTo.isEmpty && catalog.summary(synth).connectedFrom.isEmpty)
    }
}
