import Foundation
import MIDICore
import RtMidiBackend
import TestSupport
import Testing

/// `JackPortConnector` and `WakeupEvent` against a real `jackd -d dummy` (in the serialized
/// `JackMIDITests` suite: the server is chosen through `JACK_DEFAULT_SERVER`).
extension JackMIDITests {
    @Test func theConnectorConnectsAndDisconnectsTwoOtherPorts() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            let input = try client.openVirtualInput(named: "in")
            let connector = try JackPortConnector(clientName: "midihub-test-connector")
            #expect(!connector.isConnected(output.name, to: input.name))

            try connector.connect(output.name, to: input.name)
            try connector.connect(output.name, to: input.name)  // already connected: success
            // The server's graph reaches the clients' view of it a moment later.
            try waitUntil({ connector.isConnected(output.name, to: input.name) }, message: "the connection never showed")
            try waitUntilConnected(output, input)
            try output.send(.noteOn(channel: 2, note: 64, velocity: 90))
            #expect(receive(1, from: input) == [.noteOn(channel: 2, note: 64, velocity: 90)])

            try connector.disconnect(output.name, from: input.name)
            // As above: once the client sees it gone (a second disconnect sooner races the graph's update).
            try waitUntil({ !connector.isConnected(output.name, to: input.name) }, message: "the connection never went")
            try connector.disconnect(output.name, from: input.name)  // not connected: success
        }
    }

    @Test func theConnectorNamesBothPortsWhenJackRefuses() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let input = try client.openVirtualInput(named: "in")
            let connector = try JackPortConnector(clientName: "midihub-test-connector")
            let missing = try JackPortName(parsing: "jack:nobody:out")
            do throws(JackMIDIError) {
                try connector.connect(missing, to: input.name)
                Issue.record("connecting a missing port succeeded")
            } catch {
                guard case .connectionFailed(missing, input.name, connecting: true, _) = error else {
                    Issue.record("expected connectionFailed, got \(error)")
                    return
                }
                #expect(error.description.hasPrefix("JACK MIDI: jack_connect jack:nobody:out -> \(input.name) failed"))
            }
        }
    }

    /// The daemon relies on this instead of probing a server it is connected to.
    @Test(arguments: [false, true])
    func theConnectorSeesItsServerGo(killed: Bool) throws {
        let server = try JackTestServer.start()
        let connector: JackPortConnector
        do {
            connector = try JackPortConnector(clientName: "midihub-test-connector")
        } catch {
            server.stop()
            throw error
        }
        #expect(!connector.serverIsGone)
        usleep(200_000)
        #expect(!connector.serverIsGone, "a live server counted as gone")
        killed ? server.kill() : server.stop()
        var waited = 0
        while !connector.serverIsGone, waited < 100 {
            usleep(50_000)
            waited += 1
        }
        #expect(connector.serverIsGone, "\(killed ? "kill -9" : "SIGTERM") of jackd went unnoticed for 5 s")
        // libjack aborts when a client of a dead server is closed: keep it, as the daemon does.
        Self.abandonedConnectors.withLock { $0.append(connector) }
    }

    @Test func inputWakesAPollOnTheWakeupEvent() throws {
        try withJackServer { server in
            let wakeup = try WakeupEvent()
            #expect(!wakeup.reset())
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            let input = try client.openVirtualInput(named: "in") { wakeup.signal() }
            try server.connect(output.name.fullName, input.name.fullName)
            try waitUntilConnected(output, input)
            wakeup.reset()
            #expect(pollReadable(wakeup.descriptor, milliseconds: 0) == false)

            try output.send(.noteOn(channel: 0, note: 60, velocity: 1))
            #expect(pollReadable(wakeup.descriptor, milliseconds: 5_000))
            #expect(wakeup.reset())
            #expect(input.drain().map(\.message) == [.noteOn(channel: 0, note: 60, velocity: 1)])
            #expect(pollReadable(wakeup.descriptor, milliseconds: 0) == false)
        }
    }

    /// Whether `descriptor` becomes readable within `milliseconds` (a deadline, not a timing check).
    private func pollReadable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, milliseconds) == 1
    }
}
