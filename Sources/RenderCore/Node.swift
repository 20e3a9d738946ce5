/// The format a node is prepared for.
///
/// - Thread: any (a plain value).
public struct RenderFormat: Hashable, Sendable {
    public var sampleRate: Double
    /// The largest block `process` will be asked to render (16…4096).
    public var maxFrames: Int

    public static let supportedSampleRates: [Double] = [44_100, 48_000, 96_000]
    public static let blockSizes: ClosedRange<Int> = 16...4096

    public init(sampleRate: Double, maxFrames: Int) {
        self.sampleRate = sampleRate
        self.maxFrames = maxFrames
    }
}

/// Everything a node needs to render one block.
///
/// - Thread: render.
public struct ProcessContext {
    /// Frames to render in this block (1…maxFrames).
    public var frames: Int
    /// Events for this node, sorted by `frame`, each `frame < frames`.
    public var events: UnsafeBufferPointer<RenderEvent>
    /// Stereo bus processed in place: instruments add into it, effects read and overwrite it.
    public var bus: AudioBus
    public var host: HostSync
    /// The node's send outputs (`Node.sendOutputs`, in that order), cleared, for it to add
    /// into; empty when nothing in the graph takes them (the node can skip that work).
    public var sends: UnsafeBufferPointer<AudioBus>

    public init(frames: Int, events: UnsafeBufferPointer<RenderEvent>, bus: AudioBus, host: HostSync,
                sends: UnsafeBufferPointer<AudioBus> = UnsafeBufferPointer(start: nil, count: 0)) {
        self.frames = frames
        self.events = events
        self.bus = bus
        self.host = host
        self.sends = sends
    }
}

/// A unit of the render graph: an instrument, effect, generator…
///
/// Split lifecycle: `prepare` runs on the control side and may allocate; `process` runs on
/// the render thread and must not allocate, lock or make system calls.
/// - Thread: any (each requirement below names its own thread: `prepare` on control, `process` on render).
public protocol Node: AnyObject, Sendable {
    /// - Thread: any.
    var descriptor: NodeDescriptor { get }
    /// - Thread: any.
    var parameters: [ParameterInfo] { get }
    /// - Thread: any.
    var outputs: [OutputInfo] { get }
    /// Output values, indexed by `OutputInfo.id`.
    /// - Thread: any.
    var outputValues: OutputValues { get }
    /// Names of the audio outputs the node feeds besides its main one — a SoundFont
    /// instrument's `reverb` and `chorus` sends — which the graph routes like the main one.
    /// - Thread: any.
    var sendOutputs: [String] { get }
    /// The format of the last `prepare`, or nil before the first.
    /// - Thread: control.
    var preparedFormat: RenderFormat? { get }
    /// Allocates everything `process` needs; resets the node's state.
    /// - Thread: control (never while the node is in a running program).
    func prepare(format: RenderFormat)
    /// Renders one block, applying each event at its frame.
    /// - Thread: render.
    func process(_ context: ProcessContext)
}

extension Node {
    /// No send outputs: most nodes have only their main output.
    /// - Thread: any.
    public var sendOutputs: [String] { [] }
}
