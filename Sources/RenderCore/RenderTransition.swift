/// A program on its way in: the program, the one it replaces, and the plan for rendering
/// both during the crossfade. Built on the control side by `RenderEngine.install`;
/// immutable on the render thread.
///
/// The plan renders every node once, in an order that respects both programs' wiring: a
/// node both programs hold (the same instance) runs with the new program's events, a node
/// only one program holds runs with that program's. The fade happens where the wiring
/// differs: every input that only the new wiring has — into a kept node or into the output
/// — rises with the fade, every input only the old wiring has falls, and inputs both
/// have stay at full level. Adding an instrument fades it in; removing an effect blends
/// from its output to its input (wet to dry); re-routing a chain crossfades the two paths.
/// A kept node whose inputs change renders once, on the blend of its old and new inputs,
/// so a path through it that fades out fades a little faster than the plain curve.
///
/// - Thread: render for `renderCrossfade`; `init` on control.
final class RenderTransition: @unchecked Sendable {
    let program: RenderProgram
    /// The program running when this one was installed. Not owned: the engine keeps the
    /// previous transition (which owns it) alive until the crossfade is over.
    unowned(unsafe) let previous: RenderProgram?
    let fadeFrames: Int
    private let plan: RenderPlan?
    private let fadeIn: UnsafeMutablePointer<Float>

    /// - Thread: control (allocates).
    init(program: RenderProgram, previous: RenderProgram?, crossfade: Crossfade) {
        self.program = program
        self.previous = previous
        fadeFrames = previous == nil ? 0 : crossfade.frames(sampleRate: program.format.sampleRate)
        plan = previous.map { Self.plan(from: $0, to: program) }
        let table = crossfade.fadeInTable(frames: fadeFrames)
        fadeIn = .allocate(capacity: table.count)
        fadeIn.initialize(from: table, count: table.count)
    }

    deinit {
        fadeIn.deallocate()
    }

    /// Renders one crossfade block whose first frame is `position` frames into the fade.
    /// - Returns: events dropped because a node's list was full.
    /// - Thread: render.
    func renderCrossfade(frames: Int, position: Int, events: UnsafeBufferPointer<RenderEvent>,
                         bus: AudioBus, host: HostSync) -> Int {
        guard let previous, let plan else { return program.process(frames: frames, events: events, bus: bus, host: host) }
        let dropped = program.dispatch(events)
        _ = previous.dispatch(events)  // the old nodes' lists; drops are counted once, by the new program
        plan.run(frames: frames, new: program, old: previous, bus: bus, host: host,
                     fade: FadeGains(table: UnsafePointer(fadeIn), frames: fadeFrames), position: position)
        return dropped
    }

    /// A node of either program: where it runs from and renders into.
    private struct Member {
        var side: RenderPlan.Side
        var index: Int
        var program: RenderProgram
        /// Its inputs in the new and the old wiring (members' outputs), `nil` where it is absent.
        var newInputs: [Output]?
        var oldInputs: [Output]?
    }

    /// Output `output` (0 main, k send k − 1) of the member at `member`.
    private struct Output: Hashable {
        var member: Int
        var output: Int
    }

    /// Every node of both programs once (kept nodes from the new one), ordered so that each
    /// comes after its inputs in both wirings; inputs weighted by the wiring that has them.
    private static func plan(from old: RenderProgram, to new: RenderProgram) -> RenderPlan {
        var members: [Member] = new.nodes.indices.map { Member(side: .new, index: $0, program: new) }
        var oldPosition: [Int] = []
        for (index, node) in old.nodes.enumerated() {
            if let kept = new.index(of: node) {
                oldPosition.append(kept)
            } else {
                oldPosition.append(members.count)
                members.append(Member(side: .old, index: index, program: old))
            }
        }
        func newOutput(_ port: AudioWiring.Port) -> Output { Output(member: port.node, output: port.output) }
        func oldOutput(_ port: AudioWiring.Port) -> Output { Output(member: oldPosition[port.node], output: port.output) }
        for index in new.nodes.indices { members[index].newInputs = new.wiring.inputs[index].map(newOutput) }
        for (index, position) in oldPosition.enumerated() { members[position].oldInputs = old.wiring.inputs[index].map(oldOutput) }
        func bus(_ output: Output) -> AudioBus {
            let member = members[output.member]
            return member.program.bus(AudioWiring.Port(member.index, output: output.output))
        }

        var inputs: [RenderPlan.Input] = []
        func add(new newSources: [Output]?, old oldSources: [Output]?) -> Range<Int> {
            let start = inputs.count
            let newSet = newSources ?? [], oldSet = oldSources ?? []
            let both = newSources != nil && oldSources != nil
            for source in newSet {
                let weight: RenderPlan.Weight = !both || oldSet.contains(source) ? .one : .fadeIn
                inputs.append(RenderPlan.Input(buffer: bus(source), weight: weight))
            }
            for source in oldSet where !newSet.contains(source) {
                inputs.append(RenderPlan.Input(buffer: bus(source), weight: both ? .fadeOut : .one))
            }
            return start..<inputs.count
        }
        let steps = order(members).map { position in
            let member = members[position]
            return RenderPlan.Step(side: member.side, index: member.index, buffer: member.program.buffers[member.index].bus,
                                   sends: member.program.sends(of: member.index),
                                   takesInput: member.program.takesInput[member.index],
                                   inputRange: add(new: member.newInputs, old: member.oldInputs))
        }
        let output = add(new: new.wiring.toOutput.map(newOutput), old: old.wiring.toOutput.map(oldOutput))
        return RenderPlan(steps: steps, inputs: inputs, outputRange: output)
    }

    /// Members in an order where each follows its inputs of both wirings. Should the two
    /// wirings disagree on the order (one has a before b, the other b before a), the rest
    /// follow in listing order and a node may read an input's previous block for the fade.
    private static func order(_ members: [Member]) -> [Int] {
        var placed = [Bool](repeating: false, count: members.count)
        var order: [Int] = []
        func ready(_ position: Int) -> Bool {
            let sources = (members[position].newInputs ?? []) + (members[position].oldInputs ?? [])
            return sources.allSatisfy { placed[$0.member] }
        }
        while order.count < members.count {
            let next = members.indices.first { !placed[$0] && ready($0) } ?? members.indices.first { !placed[$0] }!
            placed[next] = true
            order.append(next)
        }
        return order
    }
}
