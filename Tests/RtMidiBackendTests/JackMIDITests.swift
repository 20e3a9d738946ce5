import CJackTestEnvironment
import Foundation
import MIDICore
import RtMidiBackend
import Synchronization
import Testing

/// Against a real `jackd -d dummy` each test starts; serialized because the server is
/// chosen through the process-wide `JACK_DEFAULT_SERVER` (set before `main`, see `JackTestServer`).
@Suite(.serialized) struct JackMIDITests {
    /// Connectors whose server died: never released (libjack aborts on closing them).
    static let abandonedConnectors = Mutex<[JackPortConnector]>([])

    /// One of each kind the hub routes, SysEx included, in a fixed order.
    static let messages: [MIDIMessage] = [
        .noteOn(channel: 0, note: 60, velocity: 100),
        .controlChange(channel: 3, controller: 74, value: 12),
        .pitchBend(channel: 15, value: 0x3FFF),
        .sysEx((0..<200).map { UInt8($0 % 128) }),
        .pitchBend(channel: 1, value: 0),
        .programChange(channel: 9, program: 5),
        .noteOff(channel: 0, note: 60, velocity: 64),
        .clock,
    ]

    @Test func virtualOutputToVirtualInputThroughJackConnect() throws {
        try withJackServer { server in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            let input = try client.openVirtualInput(named: "in")
            #expect(output.name.port == "out")
            #expect(input.name.port == "in")

            let ports = try client.ports()
            #expect(ports.sources.contains(output.name))
            #expect(ports.destinations.contains(input.name))
            #expect(!ports.sources.contains(input.name))

            try server.connect(output.name.fullName, input.name.fullName)
            try waitUntilConnected(output, input)
            for message in Self.messages { try output.send(message) }
            #expect(receive(Self.messages.count, from: input) == Self.messages)
            #expect(input.droppedEvents == 0)
        }
    }

    @Test func portsOpenedByNameConnectToExistingPorts() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let sink = try client.openVirtualInput(named: "sink")
            let toSink = try client.openOutput(connectedTo: sink.name, portName: "to-sink")
            #expect(toSink.connectedDestination == sink.name)
            try waitUntilConnected(toSink, sink)
            for message in Self.messages { try toSink.send(message) }
            #expect(receive(Self.messages.count, from: sink) == Self.messages)

            let source = try client.openVirtualOutput(named: "source")
            let fromSource = try client.openInput(connectedTo: source.name, portName: "from-source")
            #expect(fromSource.connectedSource == source.name)
            #expect(try client.ports().destinations.contains(fromSource.name))
            try waitUntilConnected(source, fromSource)
            for message in Self.messages.reversed() { try source.send(message) }
            #expect(receive(Self.messages.count, from: fromSource) == Self.messages.reversed())
        }
    }

    @Test func openingByAnUnknownNameListsThePortsPresent() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let input = try client.openVirtualInput(named: "in")
            let missing = try JackPortName(parsing: "jack:nobody:nothing")
            #expect(throws: JackMIDIError.portNotFound(missing, direction: .destination, available: [input.name])) {
                try client.openOutput(connectedTo: missing, portName: "out")
            }
        }
    }

    @Test func rtMidiFailuresBecomeTypedErrorsWithItsMessageAndPrintNothing() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let tooLong = String(repeating: "x", count: 400)
            let (result, printed) = try capturingStandardError { () -> JackMIDIError? in
                do throws(JackMIDIError) {
                    _ = try client.openVirtualOutput(named: tooLong)
                    return nil
                } catch {
                    return error
                }
            }
            guard case .rtMidi(let operation, let message) = result else {
                Issue.record("expected an RtMidi error, got \(String(describing: result))")
                return
            }
            #expect(operation == "opening virtual JACK port '\(tooLong)'")
            #expect(message.contains("openVirtualPort"))
            #expect(printed == "")

        }
    }

    @Test func theLargestMessageRtMidiCarriesArrivesAndALargerOneIsRefused() throws {
        try withJackServer { server in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            let input = try client.openVirtualInput(named: "in")
            try server.connect(output.name.fullName, input.name.fullName)
            try waitUntilConnected(output, input)

            let largest = MIDIMessage.sysEx((0..<(JackMIDIOutput.maxMessageBytes - 2)).map { UInt8($0 % 128) })
            let tooLarge = MIDIMessage.sysEx([UInt8](repeating: 0x11, count: JackMIDIOutput.maxMessageBytes - 1))
            try output.send(largest)
            #expect(throws: JackMIDIError.messageTooLong(bytes: JackMIDIOutput.maxMessageBytes + 1, limit: JackMIDIOutput.maxMessageBytes, port: output.name)) {
                try output.send(tooLarge)
            }
            try output.send(.stop)
            #expect(receive(2, from: input) == [largest, .stop])
        }
    }

    @Test func aBurstLargerThanRtMidisRingArrivesWhole() throws {
        try withJackServer { server in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            let input = try client.openVirtualInput(named: "in")
            try server.connect(output.name.fullName, input.name.fullName)
            try waitUntilConnected(output, input)

            let burst: [MIDIMessage] = (0..<3000).map { .noteOn(channel: UInt8($0 % 16), note: UInt8($0 % 128), velocity: 1) }
                + (0..<20).map { _ in .sysEx([UInt8](repeating: 0x22, count: 2000)) }
            for message in burst { try output.send(message) }
            #expect(receive(burst.count, from: input) == burst)
        }
    }

    @Test func closedPortsStopSendingAndLeaveTheListing() throws {
        try withJackServer { _ in
            let client = try JackMIDIClient(clientName: "midihub-test")
            let output = try client.openVirtualOutput(named: "out")
            output.close()
            output.close()
            #expect(!output.isOpen)
            #expect(throws: JackMIDIError.portClosed(output.name)) { try output.send(.clock) }
            #expect(try !client.ports().sources.contains(output.name))
        }
    }

    @Test func withoutAServerTheJackSideIsAbsentWithOneReasonAndNoOutput() throws {
        let expected = "JACK MIDI unavailable: no JACK server running (start one with `jackd -d dummy` or your session manager)"
        // No test's server runs now (the suite is serialized); the client looks for this
        // process's server name through $JACK_DEFAULT_SERVER.
        let absentServer = String(cString: midihub_jack_test_server_name())
        let (availability, printed) = try capturingStandardError {
            JackAvailability.probe(serverName: absentServer)
        }
        #expect(availability == .unavailable(reason: expected))
        #expect(availability.logLine == expected)
        #expect(printed == "")

        let (clientError, printedByClient) = try capturingStandardError { () -> JackMIDIError? in
            do throws(JackMIDIError) {
                _ = try JackMIDIClient()
                return nil
            } catch {
                return error
            }
        }
        #expect(clientError == .unavailable(reason: expected))
        #expect(clientError?.description == expected)
        #expect(printedByClient == "")
    }

    /// Waits until what `output` sends reaches `input`: a JACK connection takes effect at
    /// a cycle boundary, and what is sent before then is lost. Sends active sensing
    /// (which `receive` leaves out) until one arrives, for at most 5 s.
    func waitUntilConnected(_ output: JackMIDIOutput, _ input: JackMIDIInput) throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            try output.send(.activeSensing)
            usleep(10_000)
            if input.drain().contains(where: { $0.message == .activeSensing }) { return }
        }
        Issue.record("\(output.name) never reached \(input.name)")
    }

    /// Drains `input` until `count` events other than active sensing arrived or 5 s
    /// passed (a deadline, not a timing check).
    func receive(_ count: Int, from input: JackMIDIInput) -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        let deadline = ContinuousClock.now + .seconds(5)
        while messages.count < count, ContinuousClock.now < deadline {
            messages += input.drain().map(\.message).filter { $0 != .activeSensing }
            usleep(5_000)
        }
        return messages
    }

    /// Runs `body` with file descriptor 2 sent to a file and returns what was written there.
    private func capturingStandardError<T>(_ body: () throws -> T) throws -> (T, String) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-stderr-\(getpid())").path
        let file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
        let saved = dup(2)
        #expect(file >= 0 && saved >= 0)
        fflush(nil)
        dup2(file, 2)
        defer { unlink(path) }
        let result: T
        do {
            defer {
                fflush(nil)
                dup2(saved, 2)
                close(saved)
                close(file)
            }
            result = try body()
        }
        return (result, Self.withoutTestRunnerLines(try String(contentsOfFile: path, encoding: .utf8)))
    }

    /// `text` without the lines Swift Testing wrote meanwhile: fd 2 is the whole process's,
    /// and the suites that run in parallel report their progress on it (each such line
    /// starts with one of the runner's symbols).
    static func withoutTestRunnerLines(_ text: String) -> String {
        let runnerSymbols: Set<Character> = ["◇", "✔", "✘", "↳", "⚠", "⚠\u{FE0E}", "⊙", "➜"]
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in line.first.map { !runnerSymbols.contains($0) } ?? true }
            .joined(separator: "\n")
    }
}
