import Control
import MIDICore
import OSC

/// What registered surfaces are sent: each change on the address a surface would send to
/// make it, so a fader that sends `/node/synth/volume` moves when a controller, the web
/// remote, a scene or another surface moves that parameter.
///
/// - Thread: any (a plain value).
extension OSCAddressSpace {
    /// The messages that show `event` to a surface: a parameter's value on its address and on
    /// its `…/norm` address; the scene switched to on `/scene`; a fired trigger on its
    /// address (`T`); the transport's state, position and tempo. Nothing for other events.
    public func feedback(for event: ControlEvent) -> [OSCMessage] {
        switch event {
        case .parameterChanged(let node, let parameter, let value):
            return parameterMessages(node: node, parameter: parameter, value: value)
        case .sceneChanged(let scene):
            return [OSCMessage("/scene", [.string(scene)])]
        case .triggerFired(let trigger):
            return [OSCMessage("/trigger/\(Self.name(trigger))", [.bool(true)])]
        case .transportChanged(let status):
            return [OSCMessage("/transport/state", [.string(status.state)]),
                    OSCMessage("/transport/position", [.string(status.position)]),
                    OSCMessage("/transport/tempo", [.float(Float(status.tempo))])]
        default:
            return []
        }
    }

    /// What reached the OSC server's MIDI port, for every surface: `/midi m` (SysEx, which
    /// an `m` cannot hold, is left out).
    public static func midiFeedback(_ message: MIDIMessage) -> OSCMessage? {
        let bytes = message.bytes
        guard let status = bytes.first, status != 0xF0, bytes.count <= 3 else { return nil }
        return OSCMessage("/midi", [.midi(OSCMIDI(status: status, data1: bytes.count > 1 ? bytes[1] : 0,
                                                  data2: bytes.count > 2 ? bytes[2] : 0))])
    }

    /// Every current value once (`/dump`): each input parameter (and its `…/norm`) and the
    /// current scene.
    public func dump(nodes: [NodeSummary], scenes: [SceneSummary]) -> [OSCMessage] {
        var messages: [OSCMessage] = []
        for node in nodes {
            for parameter in node.parameters where parameter.direction == .input {
                messages += parameterMessages(node: node.id, parameter: parameter.name, value: parameter.value)
            }
        }
        if let current = scenes.first(where: \.current) { messages.append(OSCMessage("/scene", [.string(current.name)])) }
        return messages
    }

    private func parameterMessages(node: String, parameter: String, value: Double) -> [OSCMessage] {
        let address = "/node/\(Self.name(node))/\(Self.name(parameter))"
        var messages = [OSCMessage(address, [.float(Float(value))])]
        if let summary = parameterSummary(node: node, parameter: parameter), let low = summary.min, let high = summary.max,
           high > low {
            messages.append(OSCMessage(address + "/norm", [.float(Float((value - low) / (high - low)))]))
        }
        return messages
    }

    private func parameterSummary(node: String, parameter: String) -> ParameterSummary? {
        for entry in entries {
            if case .parameter(node, let summary, false) = entry.target, summary.name == parameter { return summary }
        }
        return nil
    }
}
