import Hub

/// What the JACK lane's route table is worked out from (`HubDaemon.updateJackLane`): the lane,
/// what the core's direct routes answer from, the JACK sources carried into the hub, the JACK
/// port list and the audio rack's render ids. While it is the same, so is the table: the owner
/// compares it every turn instead of working the table out.
///
/// - Thread: owner (a plain value).
struct JackLaneBasis: Equatable {
    let lane: ObjectIdentifier
    let routes: DirectRoutesBasis
    let links: Set<Connection>
    let jackPorts: Int
    let renderIDs: [NodeID: UInt16]
}
