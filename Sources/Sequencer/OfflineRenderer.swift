import MIDICore
import RenderCore

/// Receives rendered audio block by block.
public protocol AudioSink {
    /// `left` and `right` hold `frames` samples each.
    /// - Thread: the rendering thread.
    mutating func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) throws
}

/// What an offline render plays after the file's end, so releases and reverb ring out.
///
/// - Thread: any (a plain value).
public enum RenderTail: Sendable, Equatable {
    /// Exactly `seconds` more.
    case fixed(seconds: Double)
    /// Until the output has stayed below `threshold` (a sample's magnitude) for
    /// `RenderTail.silentSeconds`, at most `maximum` seconds: a long release or reverb is
    /// heard to its end, a note never released stops at `maximum`.
    case untilSilent(threshold: Float, maximum: Double)

    /// How long the output stays below the threshold before the render ends: longer than
    /// the reverb's and chorus's delays, so what they still hold has come out.
    public static let silentSeconds = 0.5
    /// The longest tail `midihub render` plays.
    public static let longestSeconds = 30.0
}

/// Renders a `RenderSchedule` through a `RenderEngine` as fast as possible: for each block,
/// the events that fall into it at their exact frame offsets, then the engine, then the sink.
///
/// - Thread: one thread drives a renderer (it acts as the render thread of its engine).
public final class OfflineRenderer {
    public let schedule: RenderSchedule
    public let engine: RenderEngine
    public let blockSize: Int
    public let tail: RenderTail
    /// The most frames rendered after the file's end.
    private let tailFrames: Int64
    /// For `untilSilent`: how long the output has been below the threshold since the file's end.
    private var quietFrames: Int64 = 0
    private var heardSilence = false
    public private(set) var position = FramePosition.zero
    private var cursor: ScheduleCursor
    private let output: AudioBuffer
    private let blockEvents: UnsafeMutablePointer<RenderEvent>
    private let blockEventCapacity = 8192

    /// - Parameters:
    ///   - nodes: the graph (instrument first, then effects), prepared here for the
    ///     schedule's rate and `blockSize`.
    ///   - ids: the id the schedule's events address each node by (`RenderEvent.node`);
    ///     `nil`: their indices.
    ///   - wiring: how the nodes take audio from each other; `nil`: one chain.
    /// - Thread: control.
    public init(schedule: RenderSchedule, nodes: [any Node], ids: [UInt16]? = nil, wiring: AudioWiring? = nil,
                blockSize: Int = 512, tail: RenderTail = .fixed(seconds: 2)) {
        self.schedule = schedule
        self.blockSize = min(max(blockSize, RenderFormat.blockSizes.lowerBound), RenderFormat.blockSizes.upperBound)
        self.tail = tail
        switch tail {
        case .fixed(let seconds): tailFrames = Int64(max(seconds, 0) * schedule.sampleRate)
        case .untilSilent(_, let maximum): tailFrames = Int64(max(maximum, 0) * schedule.sampleRate)
        }
        cursor = ScheduleCursor(schedule: schedule)
        engine = RenderEngine(maxEventsPerBlock: blockEventCapacity)
        engine.install(RenderProgram(nodes: nodes, ids: ids, wiring: wiring,
                                     format: RenderFormat(sampleRate: schedule.sampleRate, maxFrames: self.blockSize)))
        output = AudioBuffer(channels: 2, capacity: self.blockSize)
        blockEvents = .allocate(capacity: blockEventCapacity)
    }

    deinit { blockEvents.deallocate() }

    /// The most frames the render can produce (file plus the longest tail); with
    /// `untilSilent` it usually ends before.
    public var maximumFrames: FramePosition { schedule.endFrame + tailFrames }

    public var isFinished: Bool { position >= maximumFrames || heardSilence }

    /// Renders the next block and returns it (valid until the next call), or nil at the end.
    /// - Thread: the rendering thread.
    public func renderNextBlock() -> (left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int)? {
        guard !isFinished else { return nil }
        // Listening for silence, the file's last block ends at its end: silence is judged on the tail alone.
        let listening = if case .untilSilent = tail { true } else { false }
        let limit = listening && position < schedule.endFrame ? schedule.endFrame : maximumFrames
        let frames = Int(min(Int64(blockSize), limit - position))
        let count = cursor.events(from: position, frames: frames, into: blockEvents, capacity: blockEventCapacity)
        engine.render(frames: frames, bus: output.bus, host: schedule.hostSync(atFrame: position),
                      sequenced: UnsafeBufferPointer(start: blockEvents, count: count))
        if position >= schedule.endFrame, case .untilSilent(let threshold, _) = tail {
            let peak = max(SampleMath.peak(output.left, frames: frames), SampleMath.peak(output.right, frames: frames))
            quietFrames = peak < threshold ? quietFrames + Int64(frames) : 0
            heardSilence = Double(quietFrames) >= RenderTail.silentSeconds * schedule.sampleRate
        }
        position += Int64(frames)
        return (UnsafePointer(output.left), UnsafePointer(output.right), frames)
    }

    /// Renders to the end into `sink`, calling `progress` with the fraction of the file done
    /// after each block (1 through the tail).
    /// - Thread: the rendering thread.
    public func render<Sink: AudioSink>(into sink: inout Sink, progress: (Double) throws -> Void = { _ in }) throws {
        while let block = renderNextBlock() {
            try sink.write(left: block.left, right: block.right, frames: block.frames)
            try progress(min(Double(position.index) / Double(max(schedule.endFrame.index, 1)), 1))
        }
    }
}

/// Collects rendered audio in memory (tests and benchmarks).
public struct MemorySink: AudioSink {
    public var left: [Float] = []
    public var right: [Float] = []

    public init() {}

    public mutating func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) throws {
        self.left.append(contentsOf: UnsafeBufferPointer(start: left, count: frames))
        self.right.append(contentsOf: UnsafeBufferPointer(start: right, count: frames))
    }
}
