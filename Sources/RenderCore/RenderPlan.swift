/// The render thread's plan for one block of a program's audio graph: which node runs, in
/// which order, into which buffer, on the sum of which inputs, and which buffers the output
/// bus sums. Every input carries a weight, so the same plan runs a program (every weight
/// is 1) and a crossfade between two programs (see `RenderTransition`).
///
/// - Thread: render for `run`; `init` on control (allocates).
final class RenderPlan: @unchecked Sendable {
    /// Which program a step's node (and its events) belongs to.
    enum Side { case new, old }

    /// How much of a buffer a consumer takes: all of it, or a share rising or falling with
    /// the crossfade.
    enum Weight { case one, fadeIn, fadeOut }

    struct Input {
        var buffer: AudioBus
        var weight: Weight
    }

    struct Step {
        var side: Side
        /// The node's index in its program.
        var index: Int
        /// Where the node renders: its own buffer.
        var buffer: AudioBus
        /// Its send outputs' buffers, cleared before it runs (empty: not taken).
        var sends: UnsafeBufferPointer<AudioBus>
        /// Whether the node processes its inputs' sum in place (an effect) rather than
        /// rendering into a cleared buffer (an instrument, a generator).
        var takesInput: Bool
        /// Its inputs, a range of `inputs`.
        var inputRange: Range<Int>
    }

    let steps: [Step]
    let inputs: [Input]
    /// The output bus's inputs, a range of `inputs`.
    let outputRange: Range<Int>

    /// - Thread: control (allocates).
    init(steps: [Step], inputs: [Input], outputRange: Range<Int>) {
        self.steps = steps
        self.inputs = inputs
        self.outputRange = outputRange
    }

    /// Runs every step, then sums the output's inputs into `bus` (a mono bus gets left plus right).
    /// - Parameters:
    ///   - old: the program fading out, for steps of the old side.
    ///   - fade: the gains of fading inputs, `position` frames into the fade at the block's start.
    /// - Thread: render.
    func run(frames: Int, new: RenderProgram, old: RenderProgram?, bus: AudioBus, host: HostSync,
             fade: FadeGains, position: Int) {
        for step in steps {
            guard let program = step.side == .new ? new : old else { continue }
            if step.takesInput {
                mix(step.inputRange, into: step.buffer, frames: frames, fade: fade, position: position)
            } else {
                step.buffer.clear(frames: frames)
            }
            for send in step.sends { send.clear(frames: frames) }
            program.nodes[step.index].process(ProcessContext(frames: frames, events: program.events(for: step.index),
                                                             bus: step.buffer, host: host, sends: step.sends))
        }
        mix(outputRange, into: bus, frames: frames, fade: fade, position: position)
    }

    /// `target` = the weighted sum of the stereo buffers in `range`.
    private func mix(_ range: Range<Int>, into target: AudioBus, frames: Int, fade: FadeGains, position: Int) {
        target.clear(frames: frames)
        let stereo = target.channelCount == 2
        for input in inputs[range] {
            let source = input.buffer
            if input.weight == .one {
                SampleMath.add(source.left, into: target.left, frames: frames)
                SampleMath.add(source.right, into: stereo ? target.right : target.left, frames: frames)
            } else {
                for i in 0..<frames {
                    let g = fade.gain(input.weight, at: position + i)
                    if stereo {
                        target.left[i] += g * source.left[i]
                        target.right[i] += g * source.right[i]
                    } else {
                        target.left[i] += g * (source.left[i] + source.right[i])
                    }
                }
            }
        }
    }
}

/// The gains of a crossfade, read from its fade-in table (the fade-out reads it backwards).
///
/// - Thread: render (the table is allocated and freed on control).
struct FadeGains {
    var table: UnsafePointer<Float>?
    var frames: Int

    /// No fade: only weights of one are used.
    static var none: FadeGains { FadeGains(table: nil, frames: 0) }

    /// The gain of `weight` at `frame` frames into the fade.
    @inline(__always)
    func gain(_ weight: RenderPlan.Weight, at frame: Int) -> Float {
        guard let table, weight != .one else { return weight == .fadeOut ? 0 : 1 }
        let step = min(frame, frames)
        return weight == .fadeOut ? table[frames - step] : table[step]
    }
}
