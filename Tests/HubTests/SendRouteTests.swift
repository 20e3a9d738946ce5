import RenderCore
import Testing
@testable import Hub

@Suite struct SendRouteTests {
    static let font = NodeDescriptor(kind: .instrument, subtype: "msf2", manufacturer: "mhub", name: "midihub soundfont",
                                     version: 0x10000)
    static let registry = NodeRegistry(GraphFixtures.registry.types + [
        NodeType(descriptor: font, parameters: [], sendOutputs: ["reverb", "chorus"]),
    ])

    private func parse(_ routes: String) throws -> Patch {
        try Patch.parse(yaml: """
            nodes:
              keys: { source: hardware:* }
              gm: { instrument: midihub soundfont }
              piano: { instrument: midihub synth }
              hall: { effect: Reverb }
              out: { output: default }
            routes:
              - keys -> gm
              - keys -> piano
              - gm -> out
              - piano -> out
              - hall -> out
            \(routes)
            """, file: "sends.yaml", registry: Self.registry)
    }

    @Test func aRouteCarriesASendOutputOfItsNode() throws {
        let patch = try parse("  - { from: gm, output: reverb, to: hall }")
        #expect(patch.graph.routes.last == Route("gm", "hall", output: "reverb"))
        #expect(patch.graph.routes.last?.description == "gm.reverb -> hall")
        let routes = patch.graph.audioRoutes
        #expect(routes.inputs["hall"] == [AudioRoutes.Source("gm", output: "reverb")])
        #expect(Set(routes.toOutput) == ["gm", "piano", "hall"])
        #expect(routes.unheard.isEmpty)
    }

    @Test func anOutputTheNodeLacksIsRefusedWithItsPlaceAndTheFix() {
        #expect {
            try parse("  - { from: gm, output: delay, to: hall }")
        } throws: { error in
            "\(error)" == "sends.yaml:13:5: 'gm' has no output 'delay' (fix: use one of reverb, chorus, or drop `output:`)"
        }
        #expect {
            try parse("  - { from: piano, output: reverb, to: hall }")
        } throws: { error in
            "\(error)".hasSuffix("'piano' has no output 'reverb' (fix: drop `output:` (it has only its main output))")
        }
    }
}
