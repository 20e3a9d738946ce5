/// A fixed-size, plain event for the render thread: what happens, to which node, and at
/// which frame of the block being rendered.
///
/// Channel events follow MIDI 1.0 (0-based channel, 7-bit data, 14-bit pitch bend);
/// `.parameter` sets a node parameter by id. `node` is the id of the target node in
/// the running program (by default its index: 0 is the instrument; see `RenderProgram`).
///
/// - Thread: any (a plain value; 20 bytes, no references).
public struct RenderEvent: Hashable, Sendable, BitwiseCopyable {
    public enum Kind: UInt8, Sendable, BitwiseCopyable {
        case noteOff, noteOn, polyPressure, controlChange, programChange, channelPressure, pitchBend
        /// Sets parameter `parameter` of node `node` to `value`.
        case parameter
    }

    /// Frame offset inside the block where the event takes effect (0 ..< block frames).
    public var frame: UInt32
    public var kind: Kind
    public var channel: UInt8
    /// Note number, controller number or program.
    public var data1: UInt8
    /// Velocity, controller value or pressure.
    public var data2: UInt8
    /// Id of the target node in the running program (see `RenderProgram.ids`).
    public var node: UInt16
    /// 14-bit pitch-bend value (8192 = centre).
    public var bend: UInt16
    public var parameter: UInt32
    public var value: Float

    public init(frame: UInt32, kind: Kind, channel: UInt8 = 0, data1: UInt8 = 0, data2: UInt8 = 0,
                node: UInt16 = 0, bend: UInt16 = 8192, parameter: UInt32 = 0, value: Float = 0) {
        self.frame = frame
        self.kind = kind
        self.channel = channel
        self.data1 = data1
        self.data2 = data2
        self.node = node
        self.bend = bend
        self.parameter = parameter
        self.value = value
    }

    public static func noteOn(channel: UInt8, note: UInt8, velocity: UInt8, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .noteOn, channel: channel, data1: note, data2: velocity)
    }

    public static func noteOff(channel: UInt8, note: UInt8, velocity: UInt8 = 0, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .noteOff, channel: channel, data1: note, data2: velocity)
    }

    public static func controlChange(channel: UInt8, controller: UInt8, value: UInt8, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .controlChange, channel: channel, data1: controller, data2: value)
    }

    public static func programChange(channel: UInt8, program: UInt8, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .programChange, channel: channel, data1: program)
    }

    public static func pitchBend(channel: UInt8, value: UInt16, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .pitchBend, channel: channel, bend: value)
    }

    public static func parameter(node: UInt16, id: UInt32, value: Float, frame: UInt32 = 0) -> RenderEvent {
        RenderEvent(frame: frame, kind: .parameter, node: node, parameter: id, value: value)
    }
}
