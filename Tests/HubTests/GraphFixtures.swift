import HubTestSupport
import RenderCore
@testable import Hub

enum GraphFixtures {
    static let synth = RouterFixtures.synthDescriptor
    static let reverb = NodeDescriptor(kind: .effect, subtype: "rvb1", manufacturer: "mdhb", name: "Reverb", version: 0x10000)
    /// A synth's oscillator waves, an enumeration (as the built-in synth's `osc1 wave`).
    static let waves = ["preset", "sine", "triangle", "saw", "square"].enumerated().map { ParameterChoice($1, Float($0)) }

    static let registry = NodeRegistry([
        NodeType(descriptor: synth, parameters: [ParameterInfo(id: 0, name: "cutoff", range: 20...20000,
                                                               defaultValue: 8000, unit: .hertz),
                                                 ParameterInfo(id: 1, name: "wave", range: 0...4, defaultValue: 0, unit: .generic,
                                                               choices: waves)],
                 outputs: [OutputInfo(id: 0, name: "active voices", unit: .count)]),
        NodeType(descriptor: reverb, parameters: [ParameterInfo(id: 0, name: "mix", range: 0...1, defaultValue: 0.3,
                                                                unit: .generic)]),
        NodeType(descriptor: .audioInput, parameters: [ParameterInfo(id: 0, name: "gain", range: -60...24, defaultValue: 0,
                                                                     unit: .decibels)]),
    ])

    static let keys = GraphNode(id: "keys", body: .source(PortSelector(portClass: .hardware)))
    static let transpose = GraphNode(id: "up", body: .processor(.transpose), parameters: ["semitones": 12])
    static let piano = GraphNode(id: "piano", body: .unit(synth))
    static let verb = GraphNode(id: "verb", body: .unit(reverb))
    static let out = GraphNode(id: "out", body: .output("default"))
    static let guitar = GraphNode(id: "guitar", body: .input("hw:1,0"), parameters: ["gain": 6])
    static let fluid = GraphNode(id: "fluid", body: .external(ExternalNode(port: PortSelector(client: NamePattern(glob: "FLUID*")))))

    /// keys → up → piano → verb → out
    static func chain() throws -> HubGraph {
        try HubGraph(nodes: [keys, transpose, piano, verb, out],
                     routes: [Route("keys", "up"), Route("up", "piano"), Route("piano", "verb"), Route("verb", "out")])
    }
}
