import MIDICore

/// MIDI learn: watches live MIDI for the control a user moves and says which mapping binds
/// it to `target`. A note or a program change decides at once; controllers are watched for
/// half a second after the first one (or 24 messages) so that what they are can be told
/// from the stream: an NRPN (parameter number, then data entry; 14-bit when CC 38 comes),
/// a 14-bit pair (controllers n and n + 32), a relative encoder (the same small value sent
/// again: an absolute knob sends only changes; the values give the encoding), or a plain
/// controller.
///
/// - Thread: owner (the MIDI input thread, the daemon's state owner); a plain value.
public struct MappingLearner {
    public enum Outcome: Hashable, Sendable {
        case learned(Mapping)
        case timedOut
    }

    public let target: MappingTarget
    /// When learning gives up (the caller's clock).
    public let deadline: HostTime
    /// How long controllers are watched after the first one.
    public static let window: HostDuration = 0.5
    private static let enough = 24

    private var firstTime: HostTime?
    private var messages: [MIDIMessage] = []
    private var from: NodeID?
    private var decided: Outcome?

    public init(target: MappingTarget, deadline: HostTime) {
        self.target = target
        self.deadline = deadline
    }

    /// Watches `message`, from a port feeding the source nodes `sources`, which arrived at `time`.
    /// - Returns: whether it is a channel message (learning takes it: it plays nothing).
    public mutating func observe(_ message: MIDIMessage, sources: [NodeID], time: HostTime) -> Bool {
        guard message.channel != nil else { return false }
        guard decided == nil else { return true }
        switch message {
        case .noteOff, .noteOn(_, _, 0):
            return true  // a key released from before learning began
        case .noteOn(let channel, let note, _):
            decided = .learned(mapping(.note(note), channel: channel, sources: sources, mode: .button(.momentary)))
        case .programChange(let channel, _):
            decided = .learned(mapping(.programChange, channel: channel, sources: sources))
        default:
            if firstTime == nil {
                firstTime = time
                from = sources.count == 1 ? sources[0] : nil
            }
            messages.append(message)
        }
        return true
    }

    /// What learning came to by `time`, once it has come to something.
    public mutating func outcome(at time: HostTime) -> Outcome? {
        if let decided { return decided }
        if let firstTime, time >= firstTime + Self.window || messages.count >= Self.enough {
            decided = classify().map(Outcome.learned)
        }
        if decided == nil, time >= deadline { decided = .timedOut }
        return decided
    }

    private func mapping(_ source: ControlSource, channel: UInt8, sources: [NodeID], mode: ControlMode = .absolute) -> Mapping {
        Mapping(from: sources.count == 1 ? sources[0] : nil, channel: channel, source: source, mode: mode, targets: [target])
    }

    /// The control the watched messages come from.
    private func classify() -> Mapping? {
        var controllers: [UInt8: [UInt8]] = [:]
        var order: [UInt8] = []
        var parameter: (registered: Bool, msb: UInt8?, lsb: UInt8?) = (false, nil, nil)
        var dataEntry: (seen: Bool, fine: Bool) = (false, false)
        var channel: UInt8 = 0
        var other: (source: ControlSource, channel: UInt8)?
        for message in messages {
            switch message {
            case .controlChange(let c, let controller, let value):
                channel = c
                switch controller {
                case 99, 101: parameter = (controller == 101, value, parameter.lsb)
                case 98, 100: parameter = (controller == 100, parameter.msb, value)
                case 6, 96, 97: dataEntry.seen = parameter.msb != nil && parameter.lsb != nil
                case 38: dataEntry.fine = dataEntry.seen
                default:
                    if controllers[controller] == nil { order.append(controller) }
                    controllers[controller, default: []].append(value)
                }
            case .pitchBend(let c, _): other = other ?? (.pitchBend, c)
            case .channelPressure(let c, _): other = other ?? (.channelPressure, c)
            case .polyPressure(let c, let note, _): other = other ?? (.polyPressure(note), c)
            default: break
            }
        }
        func learned(_ source: ControlSource, _ mode: ControlMode = .absolute, on channel: UInt8) -> Mapping {
            Mapping(from: from, channel: channel, source: source, mode: mode, targets: [target])
        }
        if dataEntry.seen, let msb = parameter.msb, let lsb = parameter.lsb {
            let number = UInt16(msb) << 7 | UInt16(lsb)
            return learned(parameter.registered ? .rpn(number, fine: dataEntry.fine) : .nrpn(number, fine: dataEntry.fine),
                           on: channel)
        }
        if let pair = order.first(where: { $0 < 32 && controllers[$0 + 32] != nil }) {
            return learned(.controllerPair(pair), on: channel)
        }
        if let controller = order.max(by: { controllers[$0]?.count ?? 0 < controllers[$1]?.count ?? 0 }),
           let values = controllers[controller] {
            return learned(.controller(controller), Self.encoderMode(values) ?? .absolute, on: channel)
        }
        return other.map { learned($0.source, on: $0.channel) }
    }

    /// A relative encoder's mode when `values` look like one: the same value sent twice in a
    /// row (an absolute control sends only changes), all of them small steps in one encoding.
    static func encoderMode(_ values: [UInt8]) -> ControlMode? {
        guard zip(values, values.dropFirst()).contains(where: { $0 == $1 }) else { return nil }
        if values.allSatisfy({ (57...71).contains($0) && $0 != 64 }) { return .relative(.offset64) }
        if values.allSatisfy({ (1...15).contains($0) || (65...79).contains($0) }), values.contains(where: { $0 >= 65 }) {
            return .relative(.signMagnitude)
        }
        if values.allSatisfy({ (1...15).contains($0) || (113...127).contains($0) }) { return .relative(.twosComplement) }
        return nil
    }
}
