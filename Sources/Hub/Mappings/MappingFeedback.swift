import MIDICore

/// Feedback: the messages that show a mapping's value on its controller — an LED ring, a
/// motor fader, a pad's light — in the control's own form: its controller (both halves of
/// a 14-bit pair), its NRPN or RPN (selection, then data entry), its note (velocity 127 on,
/// note-off off), or pitch bend. Pressure and program change have nothing to show.
///
/// - Thread: any (pure).
extension Mapping {
    /// Whether the control can show a value.
    public var canShowValues: Bool {
        switch source {
        case .controller, .controllerPair, .nrpn, .rpn, .note, .pitchBend: true
        case .channelPressure, .polyPressure, .programChange: false
        }
    }

    /// The messages that put the control at the position of `value` of its first target.
    public func feedback(showing value: Float) -> [MIDIMessage] {
        guard let target = targets.first else { return [] }
        let position = target.position(of: value)
        let channel = self.channel ?? 0
        let coarse = UInt8((position * 127).rounded())
        let fine = UInt16((position * 16383).rounded())
        func cc(_ controller: UInt8, _ value: UInt8) -> MIDIMessage {
            .controlChange(channel: channel, controller: controller, value: value)
        }
        switch source {
        case .controller(let number):
            return [cc(number, coarse)]
        case .controllerPair(let number):
            return [cc(number, UInt8(fine >> 7)), cc(number + 32, UInt8(fine & 0x7F))]
        case .nrpn(let number, let isFine), .rpn(let number, let isFine):
            let registered = if case .rpn = source { true } else { false }
            let select = [cc(registered ? 101 : 99, UInt8(number >> 7)), cc(registered ? 100 : 98, UInt8(number & 0x7F))]
            return select + (isFine ? [cc(6, UInt8(fine >> 7)), cc(38, UInt8(fine & 0x7F))] : [cc(6, coarse)])
        case .note(let note):
            return [position >= 0.5 ? .noteOn(channel: channel, note: note, velocity: 127)
                                    : .noteOff(channel: channel, note: note, velocity: 0)]
        case .pitchBend:
            return [.pitchBend(channel: channel, value: fine)]
        case .channelPressure, .polyPressure, .programChange:
            return []
        }
    }
}
