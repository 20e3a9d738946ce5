/// How the control server keeps one client from costing the others anything
/// (docs/control-protocol.md#limits): a cap on clients that makes room for a new one by
/// closing the quietest, and a deadline for a client that stops reading its answers.
///
/// - Thread: any (a plain value).
struct ServerLimits: Sendable {
    /// The most clients served at once.
    var maxClients = ControlProtocol.maxClients
    /// A client with output waiting that took none of it for this long is dropped.
    var stalledSeconds = 30.0
    /// At the cap, a client that sent nothing for this long is closed to make room for a new one.
    var quietSeconds = 5.0
}
