#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif
import RenderCore

/// Shared shell of the stereo effect nodes: descriptor, smoothed parameters, and a
/// `process` that applies parameter events at their frames and hands the effect chunks
/// of at most `chunkFrames` frames (the control period of parameter smoothing).
///
/// Subclasses override `allocate(format:)`, `tailFrames` and `render(_:frames:host:)` (or,
/// with send outputs, `render(_:sends:frames:host:)`).
///
/// An effect whose input has been silent, and whose output has stayed below −120 dB for
/// its whole `tailFrames`, goes dormant: chunks of silent input are skipped (the bus stays
/// silent, which is what the effect would have written) until sound arrives again, so
/// effects cost nothing in the silences of sparse songs. A dormant effect takes parameter
/// changes at once (nothing sounds to glide), and `wake()` runs before it renders again.
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public class EffectNode: Node, @unchecked Sendable {
    static let chunkFrames = 32

    public let descriptor: NodeDescriptor
    /// The effect's parameters, as made in `init`.
    /// - Thread: any.
    public var parameters: [ParameterInfo] { values.infos }
    public let outputs: [OutputInfo]
    public let sendOutputs: [String]
    public let outputValues = OutputValues()
    /// The send buses at the current chunk's offset, refilled per chunk (allocated once).
    private let sendChunks: UnsafeMutablePointer<AudioBus>
    public private(set) var preparedFormat: RenderFormat?
    let values: NodeParameterValues
    var sampleRate: Float = 48_000
    /// Frames of silent input and near-silent output after which the effect is dormant.
    private var quietWindow = 0
    private var quietFrames = 0
    private(set) var isDormant = true
    /// Below this every sample counts as silence (−120 dB).
    static let silence: Float = 1e-6

    /// - Parameters:
    ///   - kind: `.effect`, or `.musicEffect` for an effect that MIDI plays too (its MIDI
    ///     events reach `handle(_:)`).
    ///   - outputs: values the effect reports (meters), indexed by id in `outputValues`.
    ///   - sendOutputs: names of the audio outputs the effect feeds besides its main one.
    /// - Thread: control.
    init(subtype: FourCharCode, name: String, kind: NodeKind = .effect, parameters: [ParameterInfo],
         outputs: [OutputInfo] = [], sendOutputs: [String] = []) {
        descriptor = NodeDescriptor(kind: kind, subtype: subtype, manufacturer: "mhub", name: name, version: 0x01_00_00)
        values = NodeParameterValues(parameters)
        self.outputs = outputs
        self.sendOutputs = sendOutputs
        sendChunks = .allocate(capacity: max(1, sendOutputs.count))
    }

    deinit { sendChunks.deallocate() }

    /// Sets the parameters' smoothing for `format`'s rate, allocates the effect's memory
    /// (`allocate`) and starts it dormant.
    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) {
        sampleRate = Float(format.sampleRate)
        values.prepare(rampFrames: max(1, Int(0.02 * sampleRate)))
        allocate(format: format)
        quietWindow = tailFrames
        quietFrames = 0
        isDormant = true
        preparedFormat = format
    }

    /// Sets where `parameter` starts (clamped to its range), as a patch's `parameters:` do.
    /// - Thread: control, before the node joins a program.
    public func presetParameter(_ parameter: some RawRepresentable<UInt32>, to value: Float) {
        guard let info = values.infos.first(where: { $0.id == parameter.rawValue }) else { return }
        preset(info, to: value)
    }

    /// `presetParameter` by the parameter's name; false when the node has none of that name.
    /// - Thread: control.
    @discardableResult
    public func presetParameter(named name: String, to value: Float) -> Bool {
        guard let info = values.infos.first(where: { $0.name == name }) else { return false }
        preset(info, to: value)
        return true
    }

    private func preset(_ info: ParameterInfo, to value: Float) {
        values.apply(RenderEvent(frame: 0, kind: .parameter, parameter: info.id, value: info.clamp(value)))
        values.settle()
    }

    /// Allocates delay memory for `format` (called by `prepare`).
    /// - Thread: control (called by `prepare`).
    func allocate(format: RenderFormat) {}

    /// How long the effect's output can still sound after its input falls silent: its
    /// longest delay line (after `allocate`).
    /// - Thread: any (read by `prepare` on control and by `process` on render).
    var tailFrames: Int { 0 }

    /// A MIDI event for a music effect, at its frame (also while dormant).
    func handle(_ event: RenderEvent) {}

    /// Called when sound reaches a dormant effect, before it renders: state that glides
    /// (gains) may jump to where the parameters say.
    func wake() {}

    /// Renders `frames` (≤ chunkFrames) frames of `bus` in place.
    func render(_ bus: AudioBus, frames: Int, host: HostSync) {}

    /// Renders `frames` frames of `bus` in place and adds into `sends` (the send outputs at
    /// the chunk's start; empty when the graph takes none). By default only `bus`.
    func render(_ bus: AudioBus, sends: UnsafeBufferPointer<AudioBus>, frames: Int, host: HostSync) {
        render(bus, frames: frames, host: host)
    }

    /// Applies the block's events at their frames and renders the bus in place, in chunks of
    /// at most `chunkFrames`; chunks of silent input are skipped while dormant.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard preparedFormat != nil else { return }
        context.forEachSegment(apply: { event in
            if event.kind == .parameter { values.apply(event) } else { handle(event) }
        }, render: { start, count in
            var offset = start
            while offset < start + count {
                let n = min(start + count - offset, Self.chunkFrames)
                let chunk = AudioBus(left: context.bus.left + offset, right: context.bus.right + offset)
                let silentInput = Self.peak(chunk, frames: n) < Self.silence
                if isDormant && silentInput {
                    values.settle()
                } else {
                    if isDormant {
                        values.settle()
                        wake()
                    }
                    isDormant = false
                    for (k, send) in context.sends.enumerated() {
                        sendChunks[k] = AudioBus(left: send.left + offset, right: send.right + offset)
                    }
                    render(chunk, sends: UnsafeBufferPointer(start: sendChunks, count: context.sends.count), frames: n,
                           host: context.host)
                    quietFrames = silentInput && Self.peak(chunk, frames: n) < Self.silence ? quietFrames + n : 0
                    isDormant = quietFrames > 0 && quietFrames >= quietWindow
                }
                offset += n
            }
        })
    }
}

/// - Thread: render.
extension EffectNode {
    /// The largest |sample| of `frames` frames of `bus`.
    /// - Thread: render.
    @inline(__always)
    static func peak(_ bus: AudioBus, frames: Int) -> Float {
        max(SampleMath.peak(bus.left, frames: frames), SampleMath.peak(bus.right, frames: frames))
    }
}

/// A circular buffer of samples with a fixed length, allocated once.
/// - Thread: render (owned by one effect; `deallocate` on control).
struct DelayLine {
    private(set) var data: UnsafeMutablePointer<Float>
    let length: Int
    private(set) var index = 0

    init(length: Int) {
        self.length = max(1, length)
        data = .allocate(capacity: self.length)
        data.initialize(repeating: 0, count: self.length)
    }

    func deallocate() { data.deallocate() }

    /// The sample written `length` frames ago.
    @inline(__always) var oldest: Float { data[index] }

    /// Where the next sample goes (the oldest is read there first), for block code that
    /// reads and writes up to `framesToWrap` samples in place, then calls `advance(by:)`.
    @inline(__always) var current: UnsafeMutablePointer<Float> { data + index }

    /// Samples before the line wraps to its start.
    @inline(__always) var framesToWrap: Int { length - index }

    /// Moves on `frames` samples (at most `framesToWrap`) read and written through `current`.
    @inline(__always)
    mutating func advance(by frames: Int) {
        index += frames
        if index == length { index = 0 }
    }

    @inline(__always)
    mutating func write(_ x: Float) {
        data[index] = x
        index += 1
        if index == length { index = 0 }
    }

    /// Writes `count` samples in order (up to `length`), as `write(_:)` one at a time would.
    mutating func write(_ samples: UnsafePointer<Float>, count: Int) {
        let first = min(count, framesToWrap)
        current.update(from: samples, count: first)
        data.update(from: samples + first, count: count - first)
        index = (index + count) % length
    }

    /// Four samples at fractional `positions` in the line's storage (one `length` below
    /// its start up to one above its end, wrapped), linearly interpolated: a swept read of
    /// four frames at once, where `read(delay:)` right after a write reads at `index - delay`.
    @inline(__always)
    func read(at positions: SIMD4<Float>) -> SIMD4<Float> {
        let size = SIMD4<Float>(repeating: Float(length))
        var wrapped = positions.replacing(with: positions + size, where: positions .< 0)
        wrapped.replace(with: wrapped - size, where: wrapped .>= size)
        #if arch(x86_64)
        let whole = unsafeBitCast(_mm_cvttps_epi32(wrapped), to: SIMD4<Int32>.self)
        let fraction = wrapped - _mm_cvtepi32_ps(unsafeBitCast(whole, to: SIMD2<Int64>.self))
        #else
        let whole = SIMD4<Int32>(Int32(wrapped[0]), Int32(wrapped[1]), Int32(wrapped[2]), Int32(wrapped[3]))
        let fraction = wrapped - SIMD4<Float>(Float(whole[0]), Float(whole[1]), Float(whole[2]), Float(whole[3]))
        #endif
        @inline(__always) func next(_ i: Int32) -> Int { Int(i) + 1 == length ? 0 : Int(i) + 1 }
        let a = SIMD4(data[Int(whole[0])], data[Int(whole[1])], data[Int(whole[2])], data[Int(whole[3])])
        let b = SIMD4(data[next(whole[0])], data[next(whole[1])], data[next(whole[2])], data[next(whole[3])])
        return a + fraction * (b - a)
    }

    /// The sample written `delay` frames ago (1 ≤ delay < length), linearly interpolated.
    @inline(__always)
    func read(delay: Float) -> Float {
        let position = Float(index) - delay
        let wrapped = position < 0 ? position + Float(length) : position
        // A position a hair below 0 wraps to the length itself in floats: frame length - 1
        // with a fraction of 1 is the same point, inside the line.
        let i0 = min(Int(wrapped), length - 1)
        let frac = wrapped - Float(i0)
        let i1 = i0 + 1 == length ? 0 : i0 + 1
        return data[i0] + frac * (data[i1] - data[i0])
    }
}
