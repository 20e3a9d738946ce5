import MIDICore
import RenderCore

extension RenderEvent {
    /// The render event for a channel voice message, or nil for system messages (which
    /// the synth does not use).
    /// - Thread: any.
    public init?(_ message: MIDIMessage, frame: UInt32 = 0, node: UInt16 = 0) {
        switch message {
        case .noteOn(let c, let n, let v): self.init(frame: frame, kind: .noteOn, channel: c, data1: n, data2: v, node: node)
        case .noteOff(let c, let n, let v): self.init(frame: frame, kind: .noteOff, channel: c, data1: n, data2: v, node: node)
        case .polyPressure(let c, let n, let p): self.init(frame: frame, kind: .polyPressure, channel: c, data1: n, data2: p, node: node)
        case .controlChange(let c, let n, let v): self.init(frame: frame, kind: .controlChange, channel: c, data1: n, data2: v, node: node)
        case .programChange(let c, let p): self.init(frame: frame, kind: .programChange, channel: c, data1: p, node: node)
        case .channelPressure(let c, let p): self.init(frame: frame, kind: .channelPressure, channel: c, data1: p, node: node)
        case .pitchBend(let c, let v): self.init(frame: frame, kind: .pitchBend, channel: c, node: node, bend: v)
        default: return nil
        }
    }
}
