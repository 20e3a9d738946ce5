import Control

/// The address space as `midihub osc --list` prints it: each address a surface can send,
/// the arguments it takes and what it does — the patch's own (its parameters, scenes and
/// triggers) and the hub's fixed ones.
///
/// - Thread: any (a plain value).
public struct OSCAddressListing: Codable, Hashable, Sendable {
    public var address: String
    public var arguments: String
    public var does: String
}

/// - Thread: any (a plain value).
extension OSCAddressSpace {
    /// Every address, the patch's in their order and then the fixed ones.
    public var listing: [OSCAddressListing] {
        entries.map(Self.listing) + Self.fixedListing
    }

    private static func listing(_ entry: Entry) -> OSCAddressListing {
        switch entry.target {
        case .parameter(let node, let parameter, let normalized):
            let range = parameter.min.flatMap { low in parameter.max.map { " \(number(low))…\(number($0))" } } ?? ""
            return OSCAddressListing(address: entry.address, arguments: normalized ? "number 0…1" : "number (\(parameter.unit)\(range))",
                                     does: "sets \(node)'s \(parameter.name)" + (normalized ? " across its range" : ""))
        case .scene(let name):
            return OSCAddressListing(address: entry.address, arguments: "none", does: "switches to the scene \(name)")
        case .trigger(let name):
            return OSCAddressListing(address: entry.address, arguments: "none, or a true number", does: "fires the trigger \(name)")
        case .transport(let action):
            let (arguments, does) = transportListing[action] ?? ("none", action.rawValue)
            return OSCAddressListing(address: entry.address, arguments: arguments, does: does)
        case .widget(let title, let pressable):
            return pressable
                ? OSCAddressListing(address: entry.address, arguments: "a true number, then a false one", does: "presses, releases \(title)")
                : OSCAddressListing(address: entry.address, arguments: "number", does: "moves the widget \(title)")
        }
    }

    private static let transportListing: [TransportRequest.Action: (String, String)] = [
        .play: ("none", "plays the transport"),
        .pause: ("none", "pauses the transport"),
        .stop: ("none", "stops the transport"),
        .seek: ("s position, or a bar number", "seeks (BAR, BAR:BEAT, SECONDSs, a marker)"),
        .tempo: ("number", "sets the tempo, quarter notes per minute"),
    ]

    private static let fixedListing = [
        OSCAddressListing(address: "/scene", arguments: "s name", does: "switches scene"),
        OSCAddressListing(address: "/connect", arguments: "s source, s destination", does: "connects two nodes (node:NAME) or ports"),
        OSCAddressListing(address: "/disconnect", arguments: "s source, s destination", does: "disconnects them"),
        OSCAddressListing(address: "/register", arguments: "none, or i port", does: "sends this surface every change"),
        OSCAddressListing(address: "/unregister", arguments: "none", does: "stops sending this surface changes"),
        OSCAddressListing(address: "/dump", arguments: "none", does: "sends every current value once"),
        OSCAddressListing(address: "/midi", arguments: "m, one or more", does: "plays MIDI out of midihub osc:osc"),
        OSCAddressListing(address: "/midi/PORT", arguments: "m, one or more", does: "sends MIDI straight to the ALSA port PORT"),
    ]

    /// A number as a list shows it: whole numbers without a fraction.
    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}
