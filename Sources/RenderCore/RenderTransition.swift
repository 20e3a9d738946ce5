/// A program on its way in: the program, the one it replaces, and the plan for rendering
/// both during the crossfade. Built on the control side by `RenderEngine.install`;
/// immutable on the render thread.
///
/// The plan renders every node once: a node that both programs hold (the same instance) runs
/// at full level with the new program's events; a node only the old program has fades out,
/// a node only the new one has fades in. A fading source (instrument, generator) renders
/// into a scratch bus that is mixed into the sum with its gain; a fading effect is blended
/// wet/dry around itself in the chain (`gain × wet + (1 − gain)-side × dry`), so removing an
/// effect fades it out and adding one fades it in. Old effects keep their place after the
/// effect that preceded them in the old chain.
///
/// - Thread: `init` on control; `renderCrossfade` on render.
final class RenderTransition: @unchecked Sendable {
    enum Side { case old, new }
    enum Fade { case none, fadeIn, fadeOut }

    struct Step {
        var side: Side
        var index: Int
        var fade: Fade
        var isEffect: Bool
    }

    let program: RenderProgram
    /// The program running when this one was installed. Not owned: the engine keeps the
    /// previous transition (which owns it) alive until the crossfade is over.
    unowned(unsafe) let previous: RenderProgram?
    let fadeFrames: Int
    private let steps: UnsafeMutablePointer<Step>
    private let stepCount: Int
    private let fadeIn: UnsafeMutablePointer<Float>
    private let scratch: AudioBuffer

    /// - Thread: control (allocates).
    init(program: RenderProgram, previous: RenderProgram?, crossfade: Crossfade) {
        self.program = program
        self.previous = previous
        fadeFrames = previous == nil ? 0 : crossfade.frames(sampleRate: program.format.sampleRate)
        let plan = previous.map { Self.plan(from: $0, to: program) } ?? []
        stepCount = plan.count
        steps = .allocate(capacity: max(1, plan.count))
        steps.initialize(from: plan, count: plan.count)
        let table = crossfade.fadeInTable(frames: fadeFrames)
        fadeIn = .allocate(capacity: table.count)
        fadeIn.initialize(from: table, count: table.count)
        scratch = AudioBuffer(channels: 2, capacity: program.format.maxFrames)
    }

    deinit {
        fadeIn.deallocate()
        steps.deallocate()
    }

    /// Renders one crossfade block whose first frame is `position` frames into the fade.
    /// - Returns: events dropped because a node's list was full.
    /// - Thread: render.
    func renderCrossfade(frames: Int, position: Int, events: UnsafeBufferPointer<RenderEvent>,
                         bus: AudioBus, host: HostSync) -> Int {
        guard let previous else { return program.process(frames: frames, events: events, bus: bus, host: host) }
        let dropped = program.dispatch(events)
        _ = previous.dispatch(events)  // the old nodes' lists; drops are counted once, by the new program
        bus.clear(frames: frames)
        let side = AudioBus(left: scratch.left, right: scratch.right, channelCount: bus.channelCount)
        for stepIndex in 0..<stepCount {
            let step = steps[stepIndex]
            let source = step.side == .new ? program : previous
            let node = source.nodes[step.index]
            let list = source.events(for: step.index)
            if step.fade == .none {
                node.process(ProcessContext(frames: frames, events: list, bus: bus, host: host))
            } else if !step.isEffect {
                side.clear(frames: frames)
                node.process(ProcessContext(frames: frames, events: list, bus: side, host: host))
                mix(side, into: bus, frames: frames, position: position, fade: step.fade)
            } else {
                copy(bus, to: side, frames: frames)
                node.process(ProcessContext(frames: frames, events: list, bus: bus, host: host))
                blend(wet: bus, dry: side, frames: frames, position: position, fade: step.fade)
            }
        }
        return dropped
    }

    /// The gain of a fading node at `frame` frames into the fade.
    @inline(__always)
    private func gain(_ fade: Fade, at frame: Int) -> Float {
        let step = min(frame, fadeFrames)
        return fade == .fadeOut ? fadeIn[fadeFrames - step] : fadeIn[step]
    }

    private func mix(_ source: AudioBus, into bus: AudioBus, frames: Int, position: Int, fade: Fade) {
        for i in 0..<frames {
            let g = gain(fade, at: position + i)
            bus.left[i] += g * source.left[i]
            if bus.channelCount == 2 { bus.right[i] += g * source.right[i] }
        }
    }

    /// `bus = g·wet + g'·dry`, where `g'` is the opposite fade's gain.
    private func blend(wet: AudioBus, dry: AudioBus, frames: Int, position: Int, fade: Fade) {
        let opposite: Fade = fade == .fadeIn ? .fadeOut : .fadeIn
        for i in 0..<frames {
            let g = gain(fade, at: position + i), d = gain(opposite, at: position + i)
            wet.left[i] = g * wet.left[i] + d * dry.left[i]
            if wet.channelCount == 2 { wet.right[i] = g * wet.right[i] + d * dry.right[i] }
        }
    }

    private func copy(_ bus: AudioBus, to target: AudioBus, frames: Int) {
        target.left.update(from: bus.left, count: frames)
        if bus.channelCount == 2 { target.right.update(from: bus.right, count: frames) }
    }

    /// Sources first (new ones, then old-only ones), then the effect chain: the new
    /// program's effects in order, each old-only effect after the kept effect that preceded
    /// it in the old chain.
    private static func plan(from old: RenderProgram, to new: RenderProgram) -> [Step] {
        func kept(_ node: any Node, in program: RenderProgram) -> Bool { program.index(of: node) != nil }
        var sources: [Step] = [], effects: [Step] = []
        for (index, node) in new.nodes.enumerated() {
            let step = Step(side: .new, index: index, fade: kept(node, in: old) ? .none : .fadeIn, isEffect: new.isEffect[index])
            if step.isEffect { effects.append(step) } else { sources.append(step) }
        }
        var insertAt = 0
        for (index, node) in old.nodes.enumerated() {
            if let newIndex = new.index(of: node) {
                if old.isEffect[index], let position = effects.firstIndex(where: { $0.side == .new && $0.index == newIndex }) {
                    insertAt = position + 1
                }
                continue
            }
            let step = Step(side: .old, index: index, fade: .fadeOut, isEffect: old.isEffect[index])
            if step.isEffect {
                effects.insert(step, at: insertAt)
                insertAt += 1
            } else {
                sources.append(step)
            }
        }
        return sources + effects
    }
}
