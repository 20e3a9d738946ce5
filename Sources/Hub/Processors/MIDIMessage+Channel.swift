import MIDICore

/// - Thread: any (a plain value).
extension MIDIMessage {
    /// The same channel voice message on `channel`; system messages are returned unchanged.
    func onChannel(_ channel: UInt8) -> MIDIMessage {
        switch self {
        case .noteOff(_, let note, let velocity): .noteOff(channel: channel, note: note, velocity: velocity)
        case .noteOn(_, let note, let velocity): .noteOn(channel: channel, note: note, velocity: velocity)
        case .polyPressure(_, let note, let pressure): .polyPressure(channel: channel, note: note, pressure: pressure)
        case .controlChange(_, let controller, let value):
            .controlChange(channel: channel, controller: controller, value: value)
        case .programChange(_, let program): .programChange(channel: channel, program: program)
        case .channelPressure(_, let pressure): .channelPressure(channel: channel, pressure: pressure)
        case .pitchBend(_, let value): .pitchBend(channel: channel, value: value)
        default: self
        }
    }
}
