import Control
import MIDICore
import OSC

/// The hub's model as OSC addresses, the control protocol's names in them (a space in a name
/// becomes `_`, as OSC addresses have none):
///
/// | address | arguments | does |
/// | --- | --- | --- |
/// | `/node/NODE/PARAMETER` | a number (`i`, `f`, `d`, `T`/`F`) | sets the parameter in its own units |
/// | `/node/NODE/PARAMETER/norm` | a number 0…1 | the same over the parameter's range |
/// | `/scene` | `s` name | switches scene |
/// | `/scene/SCENE` | none, or a true number | switches to SCENE |
/// | `/trigger/TRIGGER` | none, or a true number (a false one, a button's release, does nothing) | fires |
/// | `/transport/play`, `/transport/pause`, `/transport/stop` | none | moves the transport |
/// | `/transport/seek` | `s` position (`BAR`, `BAR:BEAT`, `SECONDSs`, a marker) or a number of bars | seeks |
/// | `/transport/tempo` | a number: quarter notes per minute | sets the tempo |
/// | `/widget/WIDGET` | a number (a slider, knob, switch, selector), or a true/false one (a button: press, release) | moves the widget |
/// | `/connect`, `/disconnect` | `s` source, `s` destination (`node:NAME`, a port) | connects or disconnects them |
/// | `/register` | none, or `i` port | sends this surface every change |
/// | `/unregister` | none | stops that |
/// | `/dump` | none | sends every current value once |
/// | `/midi` | one or more `m` | plays the MIDI out of the port `midihub osc:osc` (into the hub, when connected) |
/// | `/midi/PORT` | one or more `m` | sends the MIDI straight to the ALSA port PORT (`_` for a space) |
///
/// An incoming address may be an OSC 1.0 pattern (`/node/*/volume`, `/trigger/{a,b}`): it
/// asks of every address it matches. Built once per change of the nodes, scenes or triggers.
///
/// - Thread: any (a plain value).
public struct OSCAddressSpace: Sendable {
    /// One address a surface can send, and what it stands for.
    public struct Entry: Hashable, Sendable {
        public enum Target: Hashable, Sendable {
            case parameter(node: String, ParameterSummary, normalized: Bool)
            case scene(String)
            case trigger(String)
            case transport(TransportRequest.Action)
            /// A widget by its title; `pressable`: a button or a momentary, pressed and released.
            case widget(String, pressable: Bool)
        }

        public let address: String
        public let target: Target
    }

    /// Every address of the model: parameters (each with its `/norm`), scenes, triggers, transport.
    public let entries: [Entry]
    private let byAddress: [String: Int]

    public init(nodes: [NodeSummary], scenes: [SceneSummary], triggers: [TriggerSummary], widgets: [WidgetSummary] = []) {
        var entries: [Entry] = []
        for node in nodes {
            for parameter in node.parameters where parameter.direction == .input {
                let address = "/node/\(Self.name(node.id))/\(Self.name(parameter.name))"
                entries.append(Entry(address: address, target: .parameter(node: node.id, parameter, normalized: false)))
                entries.append(Entry(address: address + "/norm", target: .parameter(node: node.id, parameter, normalized: true)))
            }
        }
        for scene in scenes { entries.append(Entry(address: "/scene/\(Self.name(scene.name))", target: .scene(scene.name))) }
        for trigger in triggers {
            entries.append(Entry(address: "/trigger/\(Self.name(trigger.name))", target: .trigger(trigger.name)))
        }
        for widget in widgets where widget.kind != "label" {
            entries.append(Entry(address: "/widget/\(Self.name(widget.title))",
                                 target: .widget(widget.title, pressable: ["button", "momentary"].contains(widget.kind))))
        }
        for action in Self.transportActions {
            entries.append(Entry(address: "/transport/\(action.rawValue)", target: .transport(action)))
        }
        self.entries = entries
        byAddress = Dictionary(entries.enumerated().map { ($1.address, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The transport's actions a surface may send.
    static let transportActions: [TransportRequest.Action] = [.play, .pause, .stop, .seek, .tempo]

    /// A name as it appears in an address: spaces (which OSC addresses cannot hold) as `_`,
    /// and the characters OSC patterns use as `-`.
    public static func name(_ name: String) -> String {
        String(name.map { character -> Character in
            if character == " " { return "_" }
            return "/#*,?[]{}".contains(character) ? "-" : character
        })
    }

    /// What `message` asks of the hub.
    /// - Throws: `OSCSurfaceError` for an address the model has no entry for, or arguments
    ///   the address does not take.
    public func requests(for message: OSCMessage) throws(OSCSurfaceError) -> [OSCRequest] {
        switch message.address {
        case "/register":
            return [.register(port: try Self.optionalPort(message))]
        case "/unregister":
            return [.unregister]
        case "/dump":
            return [.dump]
        case "/connect", "/disconnect":
            guard message.arguments.count == 2, case .string(let source) = message.arguments[0],
                  case .string(let destination) = message.arguments[1] else {
                throw OSCSurfaceError("\(message.address) takes a source and a destination (s s)",
                                      fix: "send two strings, e.g. node:keys node:synth, or two ports")
            }
            let connection = ConnectionSummary(source: source, destination: destination)
            return [message.address == "/connect" ? .connect(connection) : .disconnect(connection)]
        case "/midi":
            return [.playMIDI(try Self.midiMessages(message))]
        case let address where address.hasPrefix("/midi/") && address.count > 6:
            return [.sendMIDI(try Self.midiMessages(message), port: String(address.dropFirst(6)))]
        case "/scene":
            guard case .string(let name)? = message.arguments.first else {
                throw OSCSurfaceError("/scene takes a scene's name (s)", fix: "send /scene with a string, or /scene/NAME")
            }
            return [.switchScene(name)]
        default:
            break
        }
        let matched = try matches(of: message.address)
        var requests: [OSCRequest] = []
        for entry in matched {
            if let request = try Self.request(entry, message.arguments) { requests.append(request) }
        }
        return requests
    }

    /// The entries `address` names: the one it is, or every one its pattern matches.
    private func matches(of address: String) throws(OSCSurfaceError) -> [Entry] {
        if let index = byAddress[address] { return [entries[index]] }
        let pattern = OSCAddressPattern(address)
        let matched = pattern.isLiteral ? [] : entries.filter { pattern.matches($0.address) }
        guard !matched.isEmpty else {
            throw OSCSurfaceError("no OSC address \(address) in this patch",
                                  fix: "send one of the addresses docs/osc.md lists, e.g. /node/NODE/PARAMETER")
        }
        return matched
    }

    /// The request of one entry with `arguments`; `nil` for a button's release.
    private static func request(_ entry: Entry, _ arguments: [OSCArgument]) throws(OSCSurfaceError) -> OSCRequest? {
        switch entry.target {
        case .parameter(let node, let parameter, let normalized):
            if case .string(let label)? = arguments.first, let choices = parameter.choices {
                guard let choice = choices.first(where: { $0.label.caseInsensitiveCompare(label) == .orderedSame }) else {
                    throw OSCSurfaceError("\(entry.address) has no choice '\(label)'",
                                          fix: "send one of \(choices.map(\.label).joined(separator: ", ")), or a number")
                }
                return .setParameter(ParameterAssignment(node: node, parameter: parameter.name, value: choice.value))
            }
            guard let number = arguments.first?.number else {
                throw OSCSurfaceError("\(entry.address) takes a number", fix: "send it with one i, f, d, T or F argument"
                                      + (parameter.choices == nil ? "" : ", or the name of one of its choices with an s argument"))
            }
            var value = number
            if normalized {
                guard let low = parameter.min, let high = parameter.max else {
                    throw OSCSurfaceError("\(entry.address): the parameter has no range", fix: "send its value in its units")
                }
                value = low + min(max(number, 0), 1) * (high - low)
            }
            return .setParameter(ParameterAssignment(node: node, parameter: parameter.name, value: value))
        case .scene(let name):
            return isRelease(arguments) ? nil : .switchScene(name)
        case .trigger(let name):
            return isRelease(arguments) ? nil : .fireTrigger(name)
        case .transport(let action):
            return .transport(try transportRequest(action, entry.address, arguments))
        case .widget(let title, let pressable):
            if pressable { return isRelease(arguments) ? .releaseWidget(title) : .pressWidget(title) }
            guard let number = arguments.first?.number else {
                throw OSCSurfaceError("\(entry.address) takes a number", fix: "send it with one i, f, d, T or F argument")
            }
            return .setWidget(title, number)
        }
    }

    private static func transportRequest(_ action: TransportRequest.Action, _ address: String,
                                         _ arguments: [OSCArgument]) throws(OSCSurfaceError) -> TransportRequest {
        switch action {
        case .seek:
            switch arguments.first {
            case .string(let position)?: return TransportRequest(action: .seek, position: position)
            case let argument? where argument.number != nil:
                return TransportRequest(action: .seek, position: String(Int(argument.number!.rounded(.down))))
            default:
                throw OSCSurfaceError("\(address) takes a position", fix: "send a bar number, or s 'BAR:BEAT', 'SECONDSs' or a marker")
            }
        case .tempo:
            guard let bpm = arguments.first?.number else {
                throw OSCSurfaceError("\(address) takes a tempo", fix: "send quarter notes per minute as a number")
            }
            return TransportRequest(action: .tempo, bpm: bpm)
        default:
            return TransportRequest(action: action)
        }
    }

    /// A button's release: a false or zero first argument (its press has none, or a true one).
    private static func isRelease(_ arguments: [OSCArgument]) -> Bool {
        guard let number = arguments.first?.number else { return false }
        return number == 0
    }

    /// The MIDI messages of `message`'s `m` arguments (its other arguments refused).
    private static func midiMessages(_ message: OSCMessage) throws(OSCSurfaceError) -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        for argument in message.arguments {
            guard case .midi(let midi) = argument else {
                throw OSCSurfaceError("\(message.address) takes MIDI", fix: "send m arguments: port, status, data 1, data 2")
            }
            guard let parsed = midiMessage(midi) else {
                throw OSCSurfaceError("\(message.address): 0x\(String(midi.status, radix: 16, uppercase: true)) is not a MIDI status byte",
                                      fix: "send m with a status byte 0x80…0xFF second, e.g. 00 90 3C 64 for a note on")
            }
            messages.append(parsed)
        }
        guard !messages.isEmpty else {
            throw OSCSurfaceError("\(message.address) has no MIDI", fix: "send one or more m arguments")
        }
        return messages
    }

    /// The one message an `m` argument holds (its data bytes as the status needs them).
    static func midiMessage(_ midi: OSCMIDI) -> MIDIMessage? {
        guard midi.status >= 0x80, midi.status != 0xF0, midi.status != 0xF7 else { return nil }
        var parser = MIDIParser()
        var first: MIDIMessage?
        parser.feed([midi.status, midi.data1 & 0x7F, midi.data2 & 0x7F]) { if first == nil { first = $0 } }
        return first
    }

    private static func optionalPort(_ message: OSCMessage) throws(OSCSurfaceError) -> Int? {
        guard let argument = message.arguments.first else { return nil }
        guard let number = argument.number, number >= 1, number <= 65_535, number == number.rounded() else {
            throw OSCSurfaceError("/register takes the UDP port to send changes to", fix: "send i PORT (1…65535), or no argument")
        }
        return Int(number)
    }
}
