/// Where each node of a `RenderProgram` takes its audio from and where its sound goes: the
/// program's audio graph. Nodes are listed in an order where every input comes first.
///
/// A node that takes audio (an effect, a music effect) processes the sum of its inputs'
/// outputs in place; an instrument or a generator renders into a cleared buffer. The
/// output bus is the sum of the nodes in `toOutput`. Two nodes fed by the same input and
/// mixed at the output are parallel chains; a node with several inputs is a bus.
///
/// - Thread: any (a plain value).
public struct AudioWiring: Hashable, Sendable {
    /// For each node (by index in the program), the indices of the nodes it takes audio
    /// from, each smaller than its own.
    public var inputs: [[Int]]
    /// The nodes summed into the output bus.
    public var toOutput: [Int]

    public init(inputs: [[Int]], toOutput: [Int]) {
        self.inputs = inputs
        self.toOutput = toOutput
    }

    /// One chain, as a mixing desk's master section: the sources (instruments, generators)
    /// summed, then every effect in the listed order on what came before it; a source
    /// listed after an effect joins after that effect.
    /// - Parameter takesInput: for each node, whether it processes audio in place (an effect).
    public static func chain(takesInput: [Bool]) -> AudioWiring {
        var inputs: [[Int]] = []
        var running: [Int] = []
        for (index, effect) in takesInput.enumerated() {
            if effect {
                inputs.append(running)
                running = [index]
            } else {
                inputs.append([])
                running.append(index)
            }
        }
        return AudioWiring(inputs: inputs, toOutput: running)
    }

    /// Whether every index names a node of `count` and every input precedes its node.
    public func isValid(nodeCount count: Int) -> Bool {
        inputs.count == count
            && inputs.enumerated().allSatisfy { index, sources in sources.allSatisfy { (0..<index).contains($0) } }
            && toOutput.allSatisfy { (0..<count).contains($0) }
    }
}
