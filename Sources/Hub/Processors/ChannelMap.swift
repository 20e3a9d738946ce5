import RenderCore

/// Filters and remaps MIDI channels. Parameter `chN` (N = 1…16) is the output channel (1…16)
/// for input channel N, or 0 to drop that channel. System messages pass unchanged.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct ChannelMap: MIDIProcessor {
    public let parameterInfos: [ParameterInfo]
    private var held = HeldNoteMap(fanout: 1)

    /// Every channel to itself.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init() {
        self.init(passing: Set(1...16))
    }

    /// Passes only `channels` (1-based), each to its own channel: the others' `chN` default to 0.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init(passing channels: Set<Int>) {
        parameterInfos = (0..<16).map {
            ParameterInfo(id: UInt32($0), name: "ch\($0 + 1)", range: 0...16,
                          defaultValue: channels.contains($0 + 1) ? Float($0 + 1) : 0, unit: .generic)
        }
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        func target(_ channel: UInt8) -> UInt8? {
            let mapped = Int(parameters[Int(channel & 0x0F)].rounded())
            return mapped == 0 ? nil : UInt8(mapped - 1)
        }
        let handled = held.route(event, into: &output) { channel, note, emit in
            if let mapped = target(channel) { emit(mapped, note) }
        }
        guard !handled else { return }
        guard let channel = event.message.channel else { return output.append(event) }
        if let mapped = target(channel) {
            output.append(TimedMIDI(time: event.time, message: event.message.onChannel(mapped)))
        }
    }
}
