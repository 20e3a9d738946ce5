import ALSA
import MIDICore

/// Turns received sequencer events into `monitor` output: an aseqdump-like text
/// line or one JSON object. Both come from the same decoded fields.
///
/// Channels are shown 1-based (1…16); pitch bend as -8192…8191; SysEx as the hex
/// of the whole message, F0 … F7.
///
/// - Thread: any (pure functions).
enum EventFormatter {
    /// The field names and values of one event, in output order.
    struct Fields {
        var type: String
        var channel: Int?
        var data: [(String, JSONObject.Value)]
    }

    static let textHeader = "    TIME  SOURCE   EVENT              CH  DATA"

    static func text(_ event: SeqEvent, seconds: Double) -> String {
        let fields = fields(of: event)
        let data = fields.data.map { key, value in
            if case .string(let text) = value { return "\(key) \(text)" }
            return "\(key) \(value.rendered)"
        }
        return formatFixed(seconds, decimals: 3).leftPadded(to: 8) + "  "
            + event.source.description.padding(to: 7) + "  "
            + fields.type.padding(to: 17) + "  "
            + (fields.channel.map(String.init) ?? "").leftPadded(to: 3) + "  "
            + data.joined(separator: ", ")
    }

    static func json(_ event: SeqEvent, seconds: Double) -> String {
        let fields = fields(of: event)
        var object = JSONObject([
            ("time", .number(seconds, decimals: 6)),
            ("source", .string(event.source.description)),
            ("type", .string(fields.type)),
        ])
        if let channel = fields.channel { object.append("channel", .int(channel)) }
        for (key, value) in fields.data { object.append(key, value) }
        return object.rendered
    }

    static func fields(of event: SeqEvent) -> Fields {
        switch event {
        case .message(let message, _, _):
            return fields(of: message)
        case .announce(let announcement, _):
            return fields(of: announcement)
        case .unsupported(let type, _, _):
            return Fields(type: "alsa-event", data: [("alsaType", .int(Int(type)))])
        }
    }

    static func fields(of message: MIDIMessage) -> Fields {
        let channel = message.channel.map { Int($0) + 1 }
        func voice(_ type: String, _ data: [(String, Int)]) -> Fields {
            Fields(type: type, channel: channel, data: data.map { ($0.0, .int($0.1)) })
        }
        func system(_ type: String, _ value: Int? = nil) -> Fields {
            Fields(type: type, data: value.map { [("value", .int($0))] } ?? [])
        }
        switch message {
        case .noteOn(_, let note, let velocity): return voice("note-on", [("note", Int(note)), ("velocity", Int(velocity))])
        case .noteOff(_, let note, let velocity): return voice("note-off", [("note", Int(note)), ("velocity", Int(velocity))])
        case .polyPressure(_, let note, let pressure): return voice("poly-pressure", [("note", Int(note)), ("pressure", Int(pressure))])
        case .controlChange(_, let controller, let value):
            return voice("control-change", [("controller", Int(controller)), ("value", Int(value))])
        case .programChange(_, let program): return voice("program-change", [("program", Int(program))])
        case .channelPressure(_, let pressure): return voice("channel-pressure", [("pressure", Int(pressure))])
        case .pitchBend(_, let value): return voice("pitch-bend", [("value", Int(value) - 8192)])
        case .sysEx(let payload):
            let hex = ([0xF0] + payload + [0xF7]).map { byte in
                (byte < 16 ? "0" : "") + String(byte, radix: 16)
            }.joined(separator: " ")
            return Fields(type: "sysex", data: [("data", .string(hex))])
        case .mtcQuarterFrame(let value): return system("mtc-quarter-frame", Int(value))
        case .songPosition(let value): return system("song-position", Int(value))
        case .songSelect(let value): return system("song-select", Int(value))
        case .tuneRequest: return system("tune-request")
        case .clock: return system("clock")
        case .start: return system("start")
        case .continue: return system("continue")
        case .stop: return system("stop")
        case .activeSensing: return system("active-sensing")
        case .reset: return system("reset")
        }
    }

    static func fields(of announcement: SeqAnnouncement) -> Fields {
        func address(_ type: String, _ address: String) -> Fields {
            Fields(type: type, data: [("address", .string(address))])
        }
        func link(_ type: String, _ sender: SeqAddress, _ destination: SeqAddress) -> Fields {
            Fields(type: type, data: [("address", .string(sender.description)), ("destination", .string(destination.description))])
        }
        switch announcement {
        case .clientStart(let client): return address("client-start", "\(client)")
        case .clientExit(let client): return address("client-exit", "\(client)")
        case .clientChange(let client): return address("client-change", "\(client)")
        case .portStart(let port): return address("port-start", port.description)
        case .portExit(let port): return address("port-exit", port.description)
        case .portChange(let port): return address("port-change", port.description)
        case .subscribed(let sender, let destination): return link("port-subscribed", sender, destination)
        case .unsubscribed(let sender, let destination): return link("port-unsubscribed", sender, destination)
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
