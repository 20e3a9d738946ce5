import MIDICore
import RenderCore

/// Receives rendered audio block by block.
public protocol AudioSink {
    /// `left` and `right` hold `frames` samples each.
    /// - Thread: the rendering thread.
    mutating func write(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int) throws
}

/// Renders a `RenderSchedule` through a `RenderEngine` as fast as possible: for each block,
/// the events that fall into it at their exact frame offsets, then the engine, then the sink.
///
/// - Thread: one thread drives a renderer (it acts as the render thread of its engine).
public final class OfflineRenderer {
    public let schedule: RenderSchedule
    public let engine: RenderEngine
    public let blockSize: Int
    /// Frames rendered after the file's end so releases and reverb can ring out.
    public let tailFrames: Int64
    public private(set) var position: Int64 = 0
    private var cursor: ScheduleCursor
    private let output: AudioBuffer
    private let blockEvents: UnsafeMutablePointer<RenderEvent>
    private let blockEventCapacity = 8192

    /// - Parameters:
    ///   - nodes: the graph (instrument first, then effects), prepared here for the
    ///     schedule's rate and `blockSize`.
    ///   - wiring: how the nodes take audio from each other; `nil`: one chain.
    /// - Thread: control.
    public init(schedule: RenderSchedule, nodes: [any Node], wiring: AudioWiring? = nil, blockSize: Int = 512,
                tailSeconds: Double = 2) {
        self.schedule = schedule
        self.blockSize = min(max(blockSize, RenderFormat.blockSizes.lowerBound), RenderFormat.blockSizes.upperBound)
        tailFrames = Int64(tailSeconds * schedule.sampleRate)
        cursor = ScheduleCursor(schedule: schedule)
        engine = RenderEngine(maxEventsPerBlock: blockEventCapacity)
        engine.install(RenderProgram(nodes: nodes, wiring: wiring,
                                     format: RenderFormat(sampleRate: schedule.sampleRate, maxFrames: self.blockSize)))
        output = AudioBuffer(channels: 2, capacity: self.blockSize)
        blockEvents = .allocate(capacity: blockEventCapacity)
    }

    deinit { blockEvents.deallocate() }

    /// Total frames the render produces (file plus tail).
    public var totalFrames: Int64 { schedule.endFrame + tailFrames }

    public var isFinished: Bool { position >= totalFrames }

    /// Renders the next block and returns it (valid until the next call), or nil at the end.
    /// - Thread: the rendering thread.
    public func renderNextBlock() -> (left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int)? {
        guard !isFinished else { return nil }
        let frames = Int(min(Int64(blockSize), totalFrames - position))
        let count = cursor.events(from: position, frames: frames, into: blockEvents, capacity: blockEventCapacity)
        engine.render(frames: frames, bus: output.bus, host: schedule.hostSync(atFrame: position),
                      sequenced: UnsafeBufferPointer(start: blockEvents, count: count))
        position += Int64(frames)
        return (UnsafePointer(output.left), UnsafePointer(output.right), frames)
    }

    /// Renders to the end into `sink`, calling `progress` with the fraction done after each block.
    /// - Thread: the rendering thread.
    public func render<Sink: AudioSink>(into sink: inout Sink, progress: (Double) throws -> Void = { _ in }) throws {
        while let block = renderNextBlock() {
            try sink.write(left: block.left, right: block.right, frames: block.frames)
            try progress(Double(position) / Double(max(totalFrames, 1)))
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
