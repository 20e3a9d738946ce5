/// Where each node of a `RenderProgram` takes its audio from and where its sound goes: the
/// program's audio graph. Nodes are listed in an order where every input comes first.
///
/// A node that takes audio (an effect, a music effect) processes the sum of its inputs
/// in place; an instrument or a generator renders into a cleared buffer. The output bus
/// is the sum of `toOutput`. Two nodes fed by the same input and mixed at the output are
/// parallel chains; a node with several inputs is a bus. An input is a node's main output
/// or one of its send outputs (`Node.sendOutputs`), a reverb bus fed by an instrument's
/// `reverb` send.
///
/// - Thread: any (a plain value).
public struct AudioWiring: Hashable, Sendable {
    /// One output of one node: its main output (0) or send output `output − 1`.
    /// An integer literal is a node's main output.
    public struct Port: Hashable, Sendable, ExpressibleByIntegerLiteral {
        public var node: Int
        public var output: Int

        public init(_ node: Int, output: Int = 0) {
            self.node = node
            self.output = output
        }

        public init(integerLiteral node: Int) {
            self.init(node)
        }
    }

    /// For each node (by index in the program), the outputs it takes audio from, each of a
    /// node listed before it.
    public var inputs: [[Port]]
    /// The outputs summed into the output bus.
    public var toOutput: [Port]

    public init(inputs: [[Port]], toOutput: [Port]) {
        self.inputs = inputs
        self.toOutput = toOutput
    }

    /// One chain, as a mixing desk's master section: the sources (instruments, generators)
    /// summed, then every effect in the listed order on what came before it; a source
    /// listed after an effect joins after that effect.
    /// - Parameter takesInput: for each node, whether it processes audio in place (an effect).
    public static func chain(takesInput: [Bool]) -> AudioWiring {
        var inputs: [[Port]] = []
        var running: [Port] = []
        for (index, effect) in takesInput.enumerated() {
            if effect {
                inputs.append(running)
                running = [Port(index)]
            } else {
                inputs.append([])
                running.append(Port(index))
            }
        }
        return AudioWiring(inputs: inputs, toOutput: running)
    }

    /// Whether every port names an output of a node of `sendCounts` (each node's number of
    /// send outputs) and every input precedes its node.
    public func isValid(sendCounts: [Int]) -> Bool {
        func exists(_ port: Port) -> Bool {
            sendCounts.indices.contains(port.node) && (0...sendCounts[port.node]).contains(port.output)
        }
        return inputs.count == sendCounts.count
            && inputs.enumerated().allSatisfy { index, sources in sources.allSatisfy { exists($0) && $0.node < index } }
            && toOutput.allSatisfy(exists)
    }

    /// The send outputs some input or the output takes, by node index.
    func wiredSends() -> Set<Int> {
        Set((inputs.joined() + toOutput).filter { $0.output > 0 }.map(\.node))
    }
}
