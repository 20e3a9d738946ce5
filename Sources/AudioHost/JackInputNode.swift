import CJack
import Foundation
import RenderCore
import Synchronization

/// Sound from JACK played into the graph: an external instrument whose `audio:` names JACK
/// audio ports (`jack:fluidsynth:*`), or an input reading JACK's capture ports. Its two
/// input ports on the hub's JACK client (`JackAudioPorts`) are read in JACK's process
/// callback, in the period they carry: an app JACK runs before the hub (it feeds the hub) adds no latency. Outside
/// JACK (the hub on ALSA PCM, offline) it is silent. Its gain and its level are an audio
/// input's (`AudioInputNode`; its dropouts stay 0: JACK hands the ports over every period).
///
/// - Thread: render for `process`; `init`, `prepare` on control.
public final class JackInputNode: Node, JackPortsNode, @unchecked Sendable {
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
    private let reportLine: @Sendable (String) -> Void
    let binding = JackPortBinding()
    let isInput = true
    private let host: JackAudioPorts
    private var gain = SmoothedValue(1)

    /// - Parameters:
    ///   - name: the node's name, its ports' prefix.
    ///   - source: the `audio:` text.
    ///   - matches: whether a JACK audio output's full name is one the node takes (`nil`: the
    ///     system's physical capture ports).
    ///   - host: the hub's JACK ports.
    ///   - report: where problems go (the daemon's log).
    /// - Thread: control.
    public init(name: String, source: String, matches: (@Sendable (String) -> Bool)?, host: JackAudioPorts,
                report: @escaping @Sendable (String) -> Void) {
        portName = name
        self.source = source
        self.matches = matches
        self.host = host
        reportLine = report
        host.add(self)
    }

    deinit {
        host.remove(binding, id: ObjectIdentifier(self))
    }

    /// - Thread: control (the ports' queue).
    func report(_ line: String) { reportLine("audio from '\(source)': " + line) }

    /// Connects the JACK audio outputs its selector matches (or the physical capture ports)
    /// to its ports: the first to `-left`, the second to `-right` (one: to both).
    /// - Thread: control (the ports' queue).
    func connect(on client: JackAudioClient) {
        guard binding.generation.load(ordering: .acquiring) == client.generation, let own = binding.portNames else { return }
        let sources = if let matches {
            client.outputPorts().filter { !$0.hasPrefix(client.name + ":") && matches($0) }
        } else {
            client.outputPorts(physical: true)
        }
        guard let first = sources.first else { return }
        client.connect(first, to: own.left)
        client.connect(sources.count > 1 ? sources[1] : first, to: own.right)
    }

    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) {
        gain = SmoothedValue(1, rampFrames: max(1, Int(0.01 * format.sampleRate)))
        preparedFormat = format
    }

    /// Adds this block's part of the ports' period to the bus at the `gain` parameter.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        let input = binding.nextBlock(of: context.frames, in: host)
        var peak: Float = 0
        context.forEachSegment { event in
            guard event.kind == .parameter, event.parameter == AudioInputNode.Parameter.gain.rawValue, event.value.isFinite else { return }
            gain.set(pow(10, min(max(event.value, -60), 24) / 20))
        } render: { offset, count in
            guard let input else { return }
            for i in offset..<offset + count {
                let g = gain.next()
                let l = input.left[i] * g, r = input.right[i] * g
                context.bus.left[i] += l
                context.bus.right[i] += r
                peak = max(peak, abs(l), abs(r))
            }
        }
        outputValues.store(peak > 0 ? 20 * log10(peak) : -120, at: AudioInputNode.Output.level.rawValue)
    }
}
