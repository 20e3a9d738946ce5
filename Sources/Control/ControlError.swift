/// A machine-readable error code on the wire, e.g. `unknown-node`. Daemons may use
/// codes beyond the ones listed here; clients compare against these constants.
///
/// - Thread: any (a plain value).
public struct ControlErrorCode: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    // Sent by the server itself.
    /// The line is not valid JSON. The connection stays open.
    public static let badJSON: Self = "bad-json"
    /// Valid JSON, but not a request object (`{"id":…,"request":"…"}`).
    public static let badRequest: Self = "bad-request"
    /// The `request` name is not one this protocol version knows.
    public static let unknownRequest: Self = "unknown-request"
    /// The `params` are missing a field or have a field of the wrong type.
    public static let badParams: Self = "bad-params"
    /// The line is longer than `ControlProtocol.maxRequestLength`; the connection is closed.
    public static let lineTooLong: Self = "line-too-long"

    // Sent by the daemon's handler.
    public static let unknownNode: Self = "unknown-node"
    public static let unknownNodeType: Self = "unknown-node-type"
    public static let unknownPort: Self = "unknown-port"
    public static let ambiguousPort: Self = "ambiguous-port"
    public static let unknownParameter: Self = "unknown-parameter"
    public static let unknownScene: Self = "unknown-scene"
    public static let unknownTrigger: Self = "unknown-trigger"
    public static let unknownWidget: Self = "unknown-widget"
    /// No RTP-MIDI session or invited peer of that name or address.
    public static let unknownPeer: Self = "unknown-peer"
    /// A widget that only shows a value (a label, a meter) set or pressed.
    public static let readOnly: Self = "read-only"
    /// A trigger that does not apply now (the transport's while the hub plays no sequence).
    public static let triggerDisabled: Self = "trigger-disabled"
    /// The transport has no sequence loaded (`transport` `load` first).
    public static let noSequence: Self = "no-sequence"
    /// A sequence file that cannot be read or parsed.
    public static let badSequence: Self = "bad-sequence"
    /// A seek or loop position the song does not have (an unknown marker).
    public static let unknownPosition: Self = "unknown-position"
    /// A transport action refused while a MIDI clock master plays (`clock: follow`): it decides.
    public static let followingClock: Self = "following-clock"
    /// A value outside its range, or an output parameter written.
    public static let invalidValue: Self = "invalid-value"
    /// The patch does not validate; the running setup is untouched.
    public static let invalidPatch: Self = "invalid-patch"
    public static let invalidRule: Self = "invalid-rule"
    /// A change checked against the graph while another one rebuilt it, again each time it
    /// was checked anew: sending it again applies it.
    public static let stale: Self = "stale"
    /// Anything else that went wrong in the daemon.
    public static let failed: Self = "failed"
}

/// An error response: `{"code":"unknown-node","message":"no node 'leed'","fix":"run 'midihub nodes' to list nodes"}`.
/// The daemon's `ControlHandler` throws it to refuse a request.
///
/// - Thread: any (a plain value).
public struct ControlError: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: ControlErrorCode
    /// One line naming the problem.
    public var message: String
    /// What the user can do about it, when known.
    public var fix: String?

    public init(_ code: ControlErrorCode, _ message: String, fix: String? = nil) {
        self.code = code
        self.message = message
        self.fix = fix
    }

    /// `message` plus `(fix: …)` when a fix is known.
    public var description: String {
        guard let fix else { return message }
        return "\(message) (fix: \(fix))"
    }
}
