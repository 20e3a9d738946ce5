/// A node live MIDI from a port plays with nothing between — a unit, or an external node
/// (`index`: its place in the graph's node list, by which a shell knows its port) — and the
/// channels that pass (bit n: 0-based channel n).
///
/// - Thread: any (a plain value).
public struct DirectRoute: Equatable, Sendable {
    public let node: NodeID
    public let index: Int
    public let isUnit: Bool
    public let channelMask: UInt16
}

/// What `HubCore.directRoutes(from:)` answers from besides the port asked about: while it is
/// the same, so is every answer (a shell works its table out again only when it changed).
///
/// - Thread: any (a plain value).
public struct DirectRoutesBasis: Equatable, Sendable {
    let graphRevision: Int
    let mappings: ObjectIdentifier
    let learning: Bool
    let portListings: Int
}

/// What a shell that reads a port itself, nearer the sound than the owner (JACK MIDI in
/// JACK's process callback), may play without the core: the core still takes every message
/// afterwards, for all the rest.
extension HubCore {
    /// The unit and external nodes live MIDI from the port at `address` reaches straight from
    /// its source nodes, when nothing but those routes can act on it first: no mapping may
    /// take it, no learning runs, no processor is on its way. Empty when it plays no node;
    /// nil when it must go through the core (an unknown port, a mapping or learning that may
    /// take it, a processor on a route).
    /// - Thread: owner.
    public func directRoutes(from address: PortAddress) -> [DirectRoute]? {
        guard learner == nil, let port = portsByAddress[address], let direct = router.directSinks(for: port),
              !mappings.mayTake(fromSources: direct.sources) else { return nil }
        return direct.sinks
    }

    /// The graph, the mappings, learning and the port list `directRoutes(from:)` reads.
    /// - Thread: owner.
    public var directRoutesBasis: DirectRoutesBasis {
        DirectRoutesBasis(graphRevision: router.revision, mappings: mappings.listIdentity, learning: learner != nil,
                          portListings: portListings)
    }
}
