import Control
import MIDICore

/// What one OSC message asks of the hub, in the control protocol's own terms
/// (`OSCAddressSpace.requests(for:)`): the server carries each out as the matching control
/// request, so OSC sets what `parameters.set`, `scenes.switch`, `triggers.fire` and
/// `transport` set, with the same checks and refusals.
///
/// - Thread: any (a plain value).
public enum OSCRequest: Hashable, Sendable {
    /// `parameters.set`: the value in the parameter's own units (a `…/norm` address scaled).
    case setParameter(ParameterAssignment)
    /// `scenes.switch`.
    case switchScene(String)
    /// `triggers.fire`.
    case fireTrigger(String)
    /// `transport`.
    case transport(TransportRequest)
    /// `widgets.set`: a slider's, knob's, switch's or selector's value.
    case setWidget(String, Double)
    /// `widgets.press`, `widgets.release`: a button or a momentary.
    case pressWidget(String)
    case releaseWidget(String)
    /// `connect`, `disconnect`: two nodes of the graph (`node:NAME`) or two ports.
    case connect(ConnectionSummary)
    case disconnect(ConnectionSummary)
    /// The sender wants every change from now on, at its address or at `port` of its host.
    case register(port: Int?)
    /// The sender wants no more changes.
    case unregister
    /// The sender wants every current value once, on the addresses it would send.
    case dump
    /// `/midi m`: MIDI played out of the OSC server's port, to what is connected to it.
    case playMIDI([MIDIMessage])
    /// `/midi/PORT m`: MIDI sent straight to the ALSA port PORT names.
    case sendMIDI([MIDIMessage], port: String)
}

/// - Thread: any (a plain value).
extension OSCRequest {
    /// The request carried out at `time` (monotonic seconds; nil: now): a parameter's value
    /// lands on that moment's audio frame.
    func at(_ time: Double?) -> OSCRequest {
        guard let time, case .setParameter(var assignment) = self else { return self }
        assignment.at = Int64((time * 1e9).rounded())
        return .setParameter(assignment)
    }
}

/// Why an OSC message asks nothing (sent back to the surface on `/error` and counted), or
/// why the OSC server cannot start: one line naming the problem and the fix.
///
/// - Thread: any (a plain value).
public struct OSCSurfaceError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public let fix: String

    public init(_ message: String, fix: String) {
        self.message = message
        self.fix = fix
    }

    public var description: String { "\(message) (fix: \(fix))" }
}
