import ALSA
import Testing

/// A port list like the VM's: System, Midi Through, two virmidi clients, two
/// instances of the same app and a synth with two ports.
private let fixture: [SeqPortInfo] = [
    port(0, 0, "System", "Timer", .duplex, kernel: true),
    port(0, 1, "System", "Announce", .source, kernel: true),
    port(14, 0, "Midi Through", "Midi Through Port-0", .duplex, kernel: true),
    port(20, 0, "Virtual Raw MIDI 1-0", "VirMIDI 1-0", .duplex, kernel: true),
    port(21, 0, "Virtual Raw MIDI 1-1", "VirMIDI 1-1", .duplex, kernel: true),
    port(128, 0, "aseqdump", "aseqdump", .destination),
    port(129, 0, "aseqdump", "aseqdump", .destination),
    port(130, 0, "FLUID Synth (1234)", "Synth input port (1234:0)", .destination),
    port(130, 1, "FLUID Synth (1234)", "Synth output", .source),
    port(131, 2, "Keys", "Keys out", .source),
]

private func port(_ client: UInt8, _ port: UInt8, _ clientName: String, _ portName: String,
                  _ direction: SeqPortInfo.Direction, kernel: Bool = false) -> SeqPortInfo {
    let capabilities: SeqPort.Capabilities = switch direction {
    case .source: .source
    case .destination: .destination
    case .duplex: [.source, .destination]
    case .none: []
    }
    return SeqPortInfo(address: SeqAddress(client: client, port: port), clientName: clientName,
                       portName: portName, capabilities: capabilities, clientType: kernel ? .kernel : .user)
}

private let resolver = PortResolver(ports: fixture)

private func resolved(_ text: String) throws -> String {
    try resolver.resolve(text).address.description
}

@Test(arguments: [
    ("20:0", "20:0"), ("20.0", "20:0"), ("130:1", "130:1"), (" 14:0 ", "14:0"),
    ("14", "14:0"), ("131", "131:2"),
])
func numericAddresses(text: String, expected: String) throws {
    #expect(try resolved(text) == expected)
}

@Test(arguments: [
    ("Midi Through", "14:0"), ("midi through", "14:0"), ("Midi", "14:0"),
    ("Virtual Raw MIDI 1-1", "21:0"), ("VirMIDI 1-0", "20:0"), ("virmidi 1-1", "21:0"),
    ("FLUID Synth (1234):1", "130:1"), ("fluid:1", "130:1"), ("Synth output", "130:1"),
    ("FLUID", "130:0"), ("Keys", "131:2"), ("Synth in", "130:0"),
])
func namesAndPrefixes(text: String, expected: String) throws {
    #expect(try resolved(text) == expected)
}

@Test func anExactNameWinsOverLongerNamesItPrefixes() throws {
    let ports = fixture + [port(140, 0, "Keys Deluxe", "Deluxe out", .source)]
    #expect(try PortResolver(ports: ports).resolve("keys").address == SeqAddress(client: 131, port: 2))
}

@Test func ambiguousPrefixListsEveryCandidate() {
    #expect(throws: PortResolutionError.ambiguous("Virtual", candidates: [
        .init(address: SeqAddress(client: 20, port: 0), name: "Virtual Raw MIDI 1-0"),
        .init(address: SeqAddress(client: 21, port: 0), name: "Virtual Raw MIDI 1-1"),
    ])) {
        try resolver.resolve("Virtual")
    }
}

@Test func twoClientsWithTheSameNameAreAmbiguous() throws {
    #expect(throws: PortResolutionError.self) { try resolver.resolve("aseqdump") }
    #expect(try resolved("129:0") == "129:0")
}

@Test func ambiguityMessageNamesCandidatesAndFix() {
    do {
        _ = try resolver.resolve("Virtual")
        Issue.record("expected an ambiguity error")
    } catch {
        #expect(error.description ==
            "'Virtual' is ambiguous: 20:0 Virtual Raw MIDI 1-0, 21:0 Virtual Raw MIDI 1-1 (fix: give client:port)")
    }
}

@Test(arguments: ["xyz", "99:0", "20:5", "99", "", "Midi Through:3"])
func unknownNamesAndAddresses(text: String) {
    do {
        _ = try resolver.resolve(text)
        Issue.record("'\(text)' should not resolve")
    } catch {
        #expect(error == .noMatch(text.trimmingSpaces))
        #expect(error.description == "no port matches '\(text.trimmingSpaces)' (fix: run 'midihub ports' to list ports)")
    }
}

private extension String {
    var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
