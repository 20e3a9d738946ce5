import Foundation
import RenderCore

/// A sine generator at a fixed frequency and level that sounds between note-on and note-off
/// (no envelope: a hard cut would click), and counts its `process` calls.
final class SineNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .instrument, subtype: "sine", manufacturer: "test", name: "sine", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    private(set) var processCount = 0
    let frequency: Double, level: Float
    private var phase = 0.0
    private var sounding = false

    init(frequency: Double = 440, level: Float = 0.5) {
        self.frequency = frequency
        self.level = level
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    func process(_ context: ProcessContext) {
        processCount += 1
        let step = 2 * Double.pi * frequency / context.host.sampleRate
        context.forEachSegment(apply: { event in
            if event.kind == .noteOn { sounding = true }
            if event.kind == .noteOff { sounding = false }
        }, render: { start, count in
            for i in start..<start + count {
                let sample = sounding ? level * Float(sin(phase)) : 0
                context.bus.left[i] += sample
                context.bus.right[i] += sample
                phase += step
            }
        })
    }
}

/// Multiplies the bus by a constant gain, in place.
final class GainNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .effect, subtype: "gain", manufacturer: "test", name: "gain", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    private(set) var processCount = 0
    let gain: Float

    init(gain: Float) { self.gain = gain }

    func prepare(format: RenderFormat) { preparedFormat = format }

    func process(_ context: ProcessContext) {
        processCount += 1
        for i in 0..<context.frames {
            context.bus.left[i] *= gain
            context.bus.right[i] *= gain
        }
    }
}

/// An instrument that adds a constant to each channel every frame (a level the tests can read back).
final class ConstantNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .instrument, subtype: "dc  ", manufacturer: "test", name: "constant", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    let left: Float, right: Float

    init(left: Float, right: Float) {
        self.left = left
        self.right = right
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    func process(_ context: ProcessContext) {
        for i in 0..<context.frames {
            context.bus.left[i] += left
            context.bus.right[i] += right
        }
    }
}

/// An instrument with one send output, `fx`: adds `main` to its bus and `send` to the send
/// when it is handed one; counts the blocks it was handed sends.
final class SendingNode: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .instrument, subtype: "send", manufacturer: "test", name: "sending", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    let sendOutputs = ["fx"]
    private(set) var preparedFormat: RenderFormat?
    private(set) var blocksWithSends = 0
    let main: Float, send: Float

    init(main: Float, send: Float) {
        self.main = main
        self.send = send
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    func process(_ context: ProcessContext) {
        if !context.sends.isEmpty { blocksWithSends += 1 }
        for i in 0..<context.frames {
            context.bus.left[i] += main
            context.bus.right[i] += main
            for send in context.sends {
                send.left[i] += self.send
                send.right[i] += self.send
            }
        }
    }
}
