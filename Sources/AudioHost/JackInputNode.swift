import CJack
import Foundation
import RenderCore
import Synchronization

/// Sound from JACK played into the graph: an external instrument whose `audio:` names JACK
/// audio ports (`jack:fluidsynth:*`), or an input reading JACK's capture ports. Its two input ports on the hub's
/// JACK client (`JackAudioInputs`) are read in JACK's process callback, in the period
/// they carry: an app JACK runs before the hub (it feeds the hub) adds no latency. Outside
/// JACK (the hub on ALSA PCM, offline) it is silent. Its gain and its level and dropouts
/// are an audio input's (`AudioInputNode`).
///
/// - Thread: render for `process`; `init`, `prepare` on control.
public final class JackInputNode: Node, @unchecked Sendable {
    public let descriptor = NodeDescriptor.audioInput
    public let parameters = AudioInputNode.parameterInfos
    public let outputs = AudioInputNode.outputInfos
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// The `audio:` text, for messages.
    public let source: String
    /// The ports' names on the hub's client: `NAME-left`, `NAME-right`.
    let portName: String
    /// Whether a JACK audio output (its full name, `CLIENT:PORT`) feeds the node; `nil`: the
    /// system's physical capture ports do.
    let matches: (@Sendable (String) -> Bool)?
    let report: @Sendable (String) -> Void
    let binding = Binding()
    private let host: JackAudioInputs
    private var gain = SmoothedValue(1)
    /// The render thread's own: which period the node read last, and where in it.
    private var period = -1
    private var cursor = 0

    /// - Parameters:
    ///   - name: the node's name, its ports' prefix.
    ///   - source: the `audio:` text.
    ///   - matches: whether a JACK audio output's full name is one the node takes (`nil`: the
    ///     system's physical capture ports).
    ///   - host: the hub's JACK inputs.
    ///   - report: where problems go (the daemon's log).
    /// - Thread: control.
    public init(name: String, source: String, matches: (@Sendable (String) -> Bool)?, host: JackAudioInputs,
                report: @escaping @Sendable (String) -> Void) {
        portName = name
        self.source = source
        self.matches = matches
        self.host = host
        self.report = report
        host.add(self)
    }

    deinit {
        host.remove(binding, id: ObjectIdentifier(self))
    }

    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) {
        gain = SmoothedValue(1, rampFrames: max(1, Int(0.01 * format.sampleRate)))
        preparedFormat = format
    }

    /// Adds this block's part of the ports' period to the bus at the `gain` parameter.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        if host.periods != period {
            period = host.periods
            cursor = 0
        }
        let start = cursor
        cursor += context.frames
        let input = start + context.frames <= host.periodFrames ? buffers() : nil
        var peak: Float = 0
        context.forEachSegment { event in
            guard event.kind == .parameter, event.parameter == AudioInputNode.Parameter.gain.rawValue, event.value.isFinite else { return }
            gain.set(pow(10, min(max(event.value, -60), 24) / 20))
        } render: { offset, count in
            guard let (left, right) = input else { return }
            for i in offset..<offset + count {
                let g = gain.next()
                let l = left[start + i] * g, r = right[start + i] * g
                context.bus.left[i] += l
                context.bus.right[i] += r
                peak = max(peak, abs(l), abs(r))
            }
        }
        outputValues.store(peak > 0 ? 20 * log10(peak) : -120, at: AudioInputNode.Output.level.rawValue)
    }

    /// The ports' buffers for this period, when the node's ports are on the client whose
    /// process thread runs.
    /// - Thread: render.
    private func buffers() -> (UnsafePointer<Float>, UnsafePointer<Float>)? {
        guard binding.generation.load(ordering: .acquiring) == host.generation, host.generation != 0,
              let ports = binding.ports else { return nil }
        let frames = jack_nframes_t(host.periodFrames)
        guard let left = jack_port_get_buffer(ports.left, frames), let right = jack_port_get_buffer(ports.right, frames) else { return nil }
        return (UnsafePointer(left.assumingMemoryBound(to: Float.self)), UnsafePointer(right.assumingMemoryBound(to: Float.self)))
    }

    /// The node's two ports on one client (`generation`; 0: none). The queue writes them
    /// before the generation; the render thread reads the generation first.
    ///
    /// - Thread: control (the inputs' queue) writes; render reads.
    final class Binding: @unchecked Sendable {
        let generation = Atomic<Int>(0)
        private let left = Atomic<Int>(0)
        private let right = Atomic<Int>(0)
        /// Their full names, for connecting (the queue's own).
        private(set) var portNames: (left: String, right: String)?

        var ports: (left: OpaquePointer, right: OpaquePointer)? {
            guard let left = OpaquePointer(bitPattern: left.load(ordering: .relaxed)),
                  let right = OpaquePointer(bitPattern: right.load(ordering: .relaxed)) else { return nil }
            return (left, right)
        }

        func bind(_ ports: JackAudioClient.InputPorts, generation: Int) {
            left.store(Int(bitPattern: UnsafeRawPointer(ports.left)), ordering: .relaxed)
            right.store(Int(bitPattern: UnsafeRawPointer(ports.right)), ordering: .relaxed)
            portNames = (ports.leftName, ports.rightName)
            self.generation.store(generation, ordering: .releasing)
        }

        /// Unbinds; returns the ports it held.
        func unbind() -> [OpaquePointer]? {
            let held = ports
            generation.store(0, ordering: .releasing)
            portNames = nil
            return held.map { [$0.left, $0.right] }
        }
    }
}
