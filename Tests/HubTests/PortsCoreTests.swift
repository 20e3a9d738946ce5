import MIDICore
import Testing
@testable import Hub

/// The daemon's port and connection logic, driven directly: port lists in, effects out.
@Suite struct PortsCoreTests {
    typealias F = PortFixtures
    static let keyboardToHub = try! Reconciler(rules: ConnectionRule.parseList(#"connect hardware:* -> "midihub:in""#))

    /// The keyboard at another client number, as after a replug.
    static func renumbered(_ port: PortDescriptor, client: Int) -> PortDescriptor {
        var moved = port
        moved.address = PortAddress(client: client, port: port.address.port)
        return moved
    }

    @Test func aKeyboardPluggedInIsConnectedByRuleOnceAnnouncementsSettle() {
        var core = PortsCore(reconciler: Self.keyboardToHub)
        let before = [F.hubIn, F.hubOut], after = [F.hubIn, F.hubOut, F.launchkey]
        var effects = core.portsChanged(from: before, to: after, at: 10)
        #expect(effects == [.portAppeared(F.launchkey)])
        var due = core.takeSettle(at: 10.1)
        #expect(!due, "the rules wait until the burst of announcements is over")
        due = core.takeSettle(at: HostTime(seconds: 10) + PortsCore.settleDelay)
        #expect(due)
        due = core.takeSettle(at: 11)
        #expect(!due, "once")
        effects = core.settle(ports: after, connections: [])
        #expect(effects == [.connect(Connection(F.launchkey.address, F.hubIn.address))])
    }

    @Test func anUnpluggedKeyboardLeavesAndComesBackUnderANewNumber() {
        var core = PortsCore(reconciler: Self.keyboardToHub)
        let hubs = [F.hubIn, F.hubOut]
        var effects = core.portsChanged(from: hubs + [F.launchkey], to: hubs, at: 1)
        #expect(effects == [.portLeft(F.launchkey)])
        let back = Self.renumbered(F.launchkey, client: 28)
        effects = core.portsChanged(from: hubs, to: hubs + [back], at: 2)
        #expect(effects == [.portAppeared(back)])
        let due = core.takeSettle(at: 3)
        #expect(due)
        effects = core.settle(ports: hubs + [back], connections: [])
        #expect(effects == [.connect(Connection(back.address, F.hubIn.address))])
    }

    @Test func anotherDeviceAtTheSameAddressIsTheOldOneLeavingAndTheNewOneAppearing() {
        // A card unplugged and another plugged in between two listings, given the same client number.
        var core = PortsCore()
        let other = F.port(24, 0, "microKEY-25", "microKEY-25 MIDI 1", .hardware, .duplex, usbPath: "usb-1-3")
        let effects = core.portsChanged(from: [F.hubIn, F.launchkey], to: [F.hubIn, other], at: 1)
        #expect(effects == [.portLeft(F.launchkey), .portAppeared(other)])
    }

    @Test func aConnectionMadeByHandIsKeptAndFollowsTheDeviceToItsNewNumber() {
        var core = PortsCore()  // no rules
        let ports = [F.launchkey, F.fluid]
        let byHand = Connection(F.launchkey.address, F.fluid.address)
        core.connectionAnnounced(byHand, connected: true, ports: ports, at: 5)
        let due = core.takeSettle(at: 5.5)
        #expect(due)
        let effects = core.settle(ports: ports, connections: [byHand])
        #expect(effects
            == [.handEditKept(source: F.launchkey, destination: F.fluid, connected: true)])
        // Replugged at 28: the edit, remembered by device identity, connects it again.
        let back = Self.renumbered(F.launchkey, client: 28)
        #expect(core.plan(ports: [back, F.fluid], connections: []) == [.connect(Connection(back.address, F.fluid.address))])
    }

    @Test func aConnectionBrokenByHandOverridesTheRule() {
        var core = PortsCore(reconciler: Self.keyboardToHub)
        let ports = [F.launchkey, F.hubIn]
        let link = Connection(F.launchkey.address, F.hubIn.address)
        core.connectionAnnounced(link, connected: false, ports: ports, at: 1)
        let due = core.takeSettle(at: 2)
        #expect(due)
        let effects = core.settle(ports: ports, connections: [])
        #expect(effects
            == [.handEditKept(source: F.launchkey, destination: F.hubIn, connected: false)], "not made again by the rule")
    }

    @Test func theHubsOwnChangesAreNotHandEdits() {
        var core = PortsCore(reconciler: Self.keyboardToHub)
        let ports = [F.launchkey, F.hubIn]
        let link = Connection(F.launchkey.address, F.hubIn.address)
        core.applied(link, connected: true, succeeded: true)
        #expect(core.isMaking(link))
        core.connectionAnnounced(link, connected: true, ports: ports, at: 1)
        #expect(!core.isMaking(link) && core.settleDue == nil, "its own announcement came back: nothing to confirm")
        // A refused subscription sends no announcement: a later one by hand is an edit.
        core.applied(link, connected: false, succeeded: false)
        core.connectionAnnounced(link, connected: false, ports: ports, at: 2)
        let due = core.takeSettle(at: 3)
        #expect(due)
        let effects = core.settle(ports: ports, connections: [])
        #expect(effects.contains(.handEditKept(source: F.launchkey, destination: F.hubIn, connected: false)))
    }

    @Test func aDepartingCardsVanishedSubscriptionsAreNotEdits() {
        // The kernel tears the card's subscriptions down, then its port leaves.
        var core = PortsCore(reconciler: Self.keyboardToHub)
        let link = Connection(F.launchkey.address, F.hubIn.address)
        core.connectionAnnounced(link, connected: false, ports: [F.launchkey, F.hubIn], at: 1)
        var effects = core.portsChanged(from: [F.launchkey, F.hubIn], to: [F.hubIn], at: 1.1)
        #expect(effects == [.portLeft(F.launchkey)])
        let due = core.takeSettle(at: 2)
        #expect(due)
        effects = core.settle(ports: [F.hubIn], connections: [])
        #expect(effects.isEmpty)
        #expect(core.reconciler.runtimeEdits.isEmpty)
    }

    @Test func aSubscriptionBetweenUnknownPortsIsIgnored() {
        var core = PortsCore()
        core.connectionAnnounced(Connection(F.vmpk.address, F.fluid.address), connected: true, ports: [F.fluid], at: 1)
        #expect(core.settleDue == nil)
    }

    @Test func lostInputRereadsThePortsASecondLaterOnce() {
        var core = PortsCore()
        core.inputLost(at: 7)
        core.inputLost(at: 7.5)
        var due = core.takeSettle(at: 7.9)
        #expect(!due)
        due = core.takeSettle(at: 8)
        #expect(due)
    }
}
