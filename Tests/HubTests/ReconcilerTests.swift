import Testing
@testable import Hub

@Suite struct ReconcilerTests {
    let ports = [PortFixtures.launchkey, PortFixtures.hubIn, PortFixtures.hubOut, PortFixtures.fluid, PortFixtures.vmpk]

    func apply(_ plan: ConnectionPlan, to current: Set<Connection>) -> Set<Connection> {
        current.subtracting(plan.toBreak).union(plan.toMake)
    }

    @Test func lastMatchingRuleWins() throws {
        let rules = try ConnectionRule.parseList("""
            connect * -> "midihub:in"
            disallow app:* -> "midihub:in"
            connect "VMPK*" -> "midihub:in"
            """)
        let plan = Reconciler(rules: rules).plan(ports: ports, current: [])
        #expect(plan.toMake == [Connection(PortFixtures.launchkey.address, PortFixtures.hubIn.address),
                                Connection(PortFixtures.vmpk.address, PortFixtures.hubIn.address)])
        #expect(plan.toBreak.isEmpty)
    }

    @Test func disallowBreaksExistingAndUnmatchedStay() throws {
        let manual = Connection(PortFixtures.vmpk.address, PortFixtures.fluid.address)
        let forbidden = Connection(PortFixtures.vmpk.address, PortFixtures.hubIn.address)
        let rules = try ConnectionRule.parseList(#"disallow app:* -> "midihub:in""#)
        let plan = Reconciler(rules: rules).plan(ports: ports, current: [manual, forbidden])
        #expect(plan.toBreak == [forbidden])
        #expect(plan.toMake.isEmpty)
    }

    @Test func planIsIdempotent() throws {
        let rules = try ConnectionRule.parseList("""
            connect hardware:* -> *
            connect "midihub:out" -> "FLUID*"
            disallow * -> "VMPK*"
            """)
        let reconciler = Reconciler(rules: rules)
        let stale = Connection(PortFixtures.launchkey.address, PortFixtures.vmpk.address)
        let first = reconciler.plan(ports: ports, current: [stale])
        #expect(!first.isEmpty)
        let after = apply(first, to: [stale])
        #expect(reconciler.plan(ports: ports, current: after).isEmpty)
        #expect(after.contains(Connection(PortFixtures.hubOut.address, PortFixtures.fluid.address)))
    }

    /// Two daemons named midihub: the edit "midihub:out -> midihub:in" made between them is
    /// made again between them, never from a daemon's output into its own input.
    @Test func anEditRememberedByNameNeverConnectsAClientToItself() {
        let otherIn = PortFixtures.port(131, 0, "midihub", "in", .app, .input)
        let otherOut = PortFixtures.port(131, 1, "midihub", "out", .app, .output)
        var reconciler = Reconciler(rules: [])
        reconciler.record(connected: true, source: otherOut, destination: PortFixtures.hubIn)
        let plan = reconciler.plan(ports: ports + [otherIn, otherOut], current: [])
        #expect(plan.toMake == [Connection(PortFixtures.hubOut.address, otherIn.address),
                                Connection(otherOut.address, PortFixtures.hubIn.address)])
    }

    @Test func neverConnectsAClientToItselfByRule() throws {
        let reconciler = Reconciler(rules: try ConnectionRule.parseList("connect * -> *"))
        let plan = reconciler.plan(ports: ports, current: [])
        #expect(!plan.toMake.contains { $0.source.client == $0.destination.client })
        #expect(plan.toMake.contains(Connection(PortFixtures.hubOut.address, PortFixtures.fluid.address)))
    }

    @Test func runtimeEditsSurviveRenumbering() {
        var reconciler = Reconciler()
        reconciler.record(connected: true, source: PortFixtures.launchkey, destination: PortFixtures.fluid)
        var replugged = PortFixtures.launchkey
        replugged.address = PortAddress(client: 28, port: 0)
        replugged.clientName = "Launchkey MK3 25 #2"
        let plan = reconciler.plan(ports: [replugged, PortFixtures.fluid], current: [])
        #expect(plan.toMake == [Connection(replugged.address, PortFixtures.fluid.address)])
    }

    @Test func runtimeDisconnectOverridesRules() throws {
        var reconciler = Reconciler(rules: try ConnectionRule.parseList(#"connect hardware:* -> "midihub:in""#))
        reconciler.record(connected: false, source: PortFixtures.launchkey, destination: PortFixtures.hubIn)
        let existing = Connection(PortFixtures.launchkey.address, PortFixtures.hubIn.address)
        #expect(reconciler.plan(ports: ports, current: [existing]).toBreak == [existing])
        reconciler.record(connected: true, source: PortFixtures.launchkey, destination: PortFixtures.hubIn)
        #expect(reconciler.runtimeEdits.count == 1)
        #expect(reconciler.plan(ports: ports, current: []).toMake == [existing])
    }

    @Test func identityPrefersSerialThenUSBPathThenCardThenClient() {
        #expect(PortFixtures.port(1, 0, "c", "p", usbPath: "u", serial: "S1").identity.device == "serial:S1")
        #expect(PortFixtures.port(1, 0, "c", "p", usbPath: "u", cardLongName: "card").identity.device == "usb:u")
        #expect(PortFixtures.port(1, 0, "c", "p", cardLongName: "card").identity.device == "card:card")
        #expect(PortFixtures.port(1, 0, "c", "p").identity == PortIdentity(device: "client:c", portName: "p"))
    }

    @Test func directionLimitsEndpoints() throws {
        let reconciler = Reconciler(rules: try ConnectionRule.parseList("connect * -> *"))
        let plan = reconciler.plan(ports: ports, current: [])
        let byAddress = Dictionary(uniqueKeysWithValues: ports.map { ($0.address, $0) })
        #expect(plan.toMake.allSatisfy { byAddress[$0.source]!.direction.canSend && byAddress[$0.destination]!.direction.canReceive })
    }
}
