import Foundation
import MIDICore
import RtMidiBackend
import Testing

/// The `swift` blocks of docs/jack.md, line for line (DocsTests/SwiftSnippetTests checks
/// that they are here), against a real `jackd -d dummy` and the real peers the doc names:
/// fluidsynth (`fluidsynth:midi_00`, which prints each event it plays with `-v`) and
/// jackd2's `jack_midiseq` as `seq:out` (a note 62 looping every half second).
extension JackMIDITests {
    static let fluidsynth = ["-si", "-v", "-m", "jack", "-a", "jack", "-o", "midi.jack.id=fluidsynth",
                             "-o", "audio.jack.autoconnect=0"]
    static let seq = ["seq", "24000", "0", "62", "12000"]

    /// Runs `body` on a fresh server with the doc's peers: fluidsynth (passed) and seq.
    func withDocPeers(_ body: (JackTestServer, JackPeer) throws -> Void) throws {
        try withJackServer { server in
            let fluidsynth = try JackPeer.start("fluidsynth", Self.fluidsynth, port: "jack:fluidsynth:midi_00")
            defer { fluidsynth.stop() }
            let seq = try JackPeer.start("jack_midiseq", Self.seq, port: "jack:seq:out")
            defer { seq.stop() }
            try body(server, fluidsynth)
        }
    }

    @Test func jackDocApiExampleSendsAndReceives() throws {
        try withDocPeers { server, fluidsynth in
            let wakeup = try WakeupEvent()
            let wakeMIDIThread: @Sendable () -> Void = { wakeup.signal() }
            var routed: [MIDIMessage] = []
            func route(_ message: MIDIMessage) { routed.append(message) }

            let jack = try JackMIDIClient(clientName: "midihub")   // throws .unavailable(reason:)
            let ports = try jack.ports()                            // .sources / .destinations
            #expect(ports.destinations.contains(try JackPortName(parsing: "jack:fluidsynth:midi_00")))
            #expect(ports.sources.contains(try JackPortName(parsing: "jack:seq:out")))
            let input = try jack.openVirtualInput(named: "in") { wakeMIDIThread() }
            let output = try jack.openOutput(connectedTo: JackPortName(parsing: "jack:fluidsynth:midi_00"),
                                             portName: "to-fluidsynth")
            // What is sent before the connection takes effect is lost (the doc says so).
            #expect(Self.untilConnected(output, fluidsynth))
            try output.send(.noteOn(channel: 0, note: 60, velocity: 100))
            #expect(fluidsynth.printsLine(with: ["noteon\t0\t60\t100"]), "fluidsynth did not play the note")

            _ = wakeup.reset()
            try server.connect("seq:out", input.name.fullName)
            let heardNote = { routed.contains { if case .noteOn(0, 62, _) = $0 { true } else { false } } }
            let deadline = ContinuousClock.now + .seconds(10)
            while !heardNote(), ContinuousClock.now < deadline {
                guard wakeup.reset() else { usleep(5_000); continue }
                for event in input.drain() { route(event.message) }
            }
            #expect(heardNote(), "routed: \(routed)")
        }
    }

    @Test func jackDocConnectorExampleConnectsTwoOtherClients() throws {
        try withDocPeers { _, fluidsynth in
            let connector = try JackPortConnector(clientName: "midihub")
            try connector.connect(JackPortName(parsing: "jack:seq:out"), to: JackPortName(parsing: "jack:fluidsynth:midi_00"))

            #expect(connector.isConnected(JackPortName(jackName: "seq:out"), to: JackPortName(jackName: "fluidsynth:midi_00")))
            #expect(fluidsynth.printsLine(with: ["noteon\t0\t62\t"]), "fluidsynth did not play seq's note")
        }
    }

    /// Sends controller 3 on channel 16 (fluidsynth prints `cc 15 3 …`) until fluidsynth
    /// prints one: the connection has taken effect.
    static func untilConnected(_ output: JackMIDIOutput, _ fluidsynth: JackPeer) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            try? output.send(.controlChange(channel: 15, controller: 3, value: 0))
            if fluidsynth.printsLine(with: ["cc\t15\t3\t"], within: .milliseconds(50)) { return true }
        }
        return false
    }
}
