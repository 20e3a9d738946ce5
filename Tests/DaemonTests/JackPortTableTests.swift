import Hub
import RtMidiBackend
import Testing
@testable import Daemon

@Suite struct JackPortTableTests {
    private func list(sources: [String] = [], destinations: [String] = []) -> JackPortList {
        JackPortList(sources: sources.map(JackPortName.init(jackName:)),
                     destinations: destinations.map(JackPortName.init(jackName:)))
    }

    @Test func jackPortsBecomeDescriptorsInTheJackNamespace() throws {
        var table = JackPortTable()
        _ = table.update(list(sources: ["seq:out"], destinations: ["fluidsynth:midi_00"]))
        let source = try #require(table.descriptors.first { $0.portName == "seq:out" })
        let destination = try #require(table.descriptors.first { $0.portName == "fluidsynth:midi_00" })
        #expect(source.direction == .output)
        #expect(destination.direction == .input)
        #expect(JackPortTable.hubName(of: destination) == "jack:fluidsynth:midi_00")
        #expect(JackPortTable.isJack(source.address) && source.address.client > 255, "never an ALSA client number")
        #expect(table.jackName(at: destination.address) == JackPortName(jackName: "fluidsynth:midi_00"))
        #expect(source.address != destination.address)
    }

    @Test func selectorsInTheJackNamespaceMatchJackPortsOnly() throws {
        var table = JackPortTable()
        _ = table.update(list(destinations: ["fluidsynth:midi_00", "other:in"]))
        let exact = try PortSelector(parsing: "jack:fluidsynth:midi_00")
        let glob = try PortSelector(parsing: "\"jack:fluid*\"")
        #expect(table.descriptors.filter(exact.matches).map(\.portName) == ["fluidsynth:midi_00"])
        #expect(table.descriptors.filter(glob.matches).map(\.portName) == ["fluidsynth:midi_00"])
        #expect(table.descriptors.filter(try PortSelector(parsing: "jack:*").matches).count == 2)
        let alsa = PortDescriptor(address: PortAddress(client: 20, port: 0), clientName: "Virtual Raw MIDI 1-0",
                                  portName: "VirMIDI 1-0", portClass: .hardware, direction: .output)
        #expect(!(try PortSelector(parsing: "jack:*")).matches(alsa))
        #expect(JackPortTable.hubName(of: alsa) == nil)
    }

    @Test func eachJackClientHasItsOwnHubClientSoRulesConnectTwoJackClients() throws {
        var table = JackPortTable()
        _ = table.update(list(sources: ["a:out", "b:out"], destinations: ["b:in", "a:in"]))
        let address = { (name: String) in table.descriptors.first { $0.portName == name }?.address }
        let aOut = try #require(address("a:out")), aIn = try #require(address("a:in"))
        let bOut = try #require(address("b:out")), bIn = try #require(address("b:in"))
        #expect(aOut.client == aIn.client && bOut.client == bIn.client && aOut.client != bOut.client)
        #expect([aOut, aIn, bOut, bIn].allSatisfy(JackPortTable.isJack))

        let rules = [try ConnectionRule(parsing: "connect jack:* -> jack:*")]
        let plan = Reconciler(rules: rules).plan(ports: table.descriptors, current: [])
        #expect(Set(plan.toMake) == [Connection(aOut, bIn), Connection(bOut, aIn)], "a client is never connected to itself")
    }

    @Test func updateReportsWhatAppearedAndLeft() {
        var table = JackPortTable()
        let first = table.update(list(sources: ["a:out", "b:out"]))
        #expect(first.appeared.map(\.portName) == ["a:out", "b:out"])
        #expect(first.left.isEmpty)
        #expect(table.update(list(sources: ["a:out", "b:out"])).isEmpty)
        let second = table.update(list(sources: ["b:out"], destinations: ["c:in"]))
        #expect(second.appeared.map(\.portName) == ["c:in"])
        #expect(second.left.map(\.portName) == ["a:out"])
    }

    @Test func aReturningPortKeepsItsAddressAndNumbersAreNotReused() throws {
        var table = JackPortTable()
        _ = table.update(list(sources: ["a:out"]))
        let address = try #require(table.descriptors.first).address
        _ = table.update(list())
        #expect(table.jackName(at: address) == nil)
        _ = table.update(list(sources: ["b:out"]))
        #expect(table.descriptors.first?.address != address)
        _ = table.update(list(sources: ["b:out", "a:out"]))
        #expect(table.descriptors.first { $0.portName == "a:out" }?.address == address)
    }
}
