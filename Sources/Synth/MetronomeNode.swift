import RenderCore
import SynthKernels

/// A generator: a click on every beat of the hub's timeline — the first beat of each bar
/// accented and higher — following its tempo and time signature (in 6/8 it clicks the
/// eighth notes). Silent while the transport is stopped. Each click is a 25 ms decaying
/// tone (1 kHz, 1.5 kHz accented) whose first and loudest frame is the one nearest the beat.
///
/// - Thread: render for `process` and what it calls; `init`, `prepare` on control.
public final class MetronomeNode: Node, @unchecked Sendable {
    /// - Thread: any (a plain value).
    public enum Parameter: UInt32, CaseIterable {
        /// Decibels of a plain beat.
        case level = 0
        /// Decibels the first beat of a bar is louder.
        case accent
        /// 0: silent.
        case enabled
    }

    public static let nodeDescriptor = NodeDescriptor(kind: .generator, subtype: "mclk", manufacturer: "mhub",
                                                      name: "metronome", version: 0x01_00_00)
    public let descriptor = MetronomeNode.nodeDescriptor
    /// Its parameters: `level`, `accent` and `enabled`.
    /// - Thread: any.
    public var parameters: [ParameterInfo] { values.infos }
    public let outputs: [OutputInfo] = []
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?
    private let values: NodeParameterValues
    private var sampleRate: Float = 48_000
    /// Frames left of the click that sounds, its phase step per frame, its amplitude and decay.
    private var clickFrames = 0
    private var phase: Float = 0
    private var step: Float = 0
    private var amplitude: Float = 0
    private var decay: Float = 1

    static let clickSeconds: Float = 0.025

    /// - Thread: control.
    public init() {
        values = NodeParameterValues([
            ParameterInfo(id: 0, name: "level", range: -60...0, defaultValue: -12, unit: .decibels),
            ParameterInfo(id: 1, name: "accent", range: 0...12, defaultValue: 6, unit: .decibels),
            ParameterInfo(id: 2, name: "enabled", range: 0...1, defaultValue: 1, unit: .boolean),
        ])
    }

    /// Takes `format`'s sample rate; no click sounds until the next beat.
    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) {
        sampleRate = Float(format.sampleRate)
        values.prepare(rampFrames: 1)
        clickFrames = 0
        preparedFormat = format
    }

    /// Adds the clicks of the beats that fall in this block (none while the transport is
    /// stopped or `enabled` is 0).
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard preparedFormat != nil else { return }
        for event in context.events { values.apply(event) }
        let host = context.host
        guard host.transport != .stopped, values.target(Parameter.enabled) >= 0.5 else {
            clickFrames = 0
            return
        }
        // Clicks fall on multiples of `interval` quarter notes counted from the bar's start;
        // a beat within a millionth of one of the block's start counts as on it.
        let interval = 4 / Double(max(host.timeSignatureDenominator, 1))
        let clicksPerBar = max(1, (Double(host.timeSignatureNumerator) * 4 / Double(max(host.timeSignatureDenominator, 1))
            / interval).rounded())
        let framesPerBeat = host.secondsPerBeat * host.sampleRate
        let sinceBar = host.beat - host.barStartBeat
        var index = (sinceBar / interval - 1e-6).rounded(.up)
        var frame = 0
        while true {
            let next = max(0, Int(((index * interval - sinceBar) * framesPerBeat).rounded()))
            renderClick(into: context.bus, from: frame, to: min(next, context.frames))
            guard next < context.frames else { break }
            startClick(accented: index.truncatingRemainder(dividingBy: clicksPerBar) == 0)
            frame = next
            index += 1
        }
    }

    private func startClick(accented: Bool) {
        let level = values.target(Parameter.level) + (accented ? values.target(Parameter.accent) : 0)
        amplitude = decibelsToGain(level)
        step = (accented ? 1_500 : 1_000) / sampleRate
        phase = 0.25  // a cosine: the click's first frame is its loudest
        clickFrames = Int(Self.clickSeconds * sampleRate)
        decay = sixtyDecibelCoefficient(frames: Float(clickFrames))
    }

    /// Adds what remains of the sounding click to frames `start..<end` of `bus`.
    private func renderClick(into bus: AudioBus, from start: Int, to end: Int) {
        var i = start
        while i < end, clickFrames > 0 {
            let sample = amplitude * sinCycle(phase)
            bus.left[i] += sample
            bus.right[i] += sample
            phase += step
            if phase >= 1 { phase -= 1 }
            amplitude *= decay
            clickFrames -= 1
            i += 1
        }
    }
}
