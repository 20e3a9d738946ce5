import Testing
@testable import Hub
import RenderCore

/// Choices by name: wherever a patch writes a value of an enumeration (a node's `parameters:`,
/// a mapping's `range:` and `values:`, a scene's `set:`), a choice's name stands for its
/// number, and a mapping to an enumeration steps through its choices.
@Suite struct ParameterChoiceTests {
    func parse(_ text: String) throws(PatchError) -> Patch {
        try Patch.parse(yaml: "nodes:\n  keys: { source: hardware:* }\n  piano: { instrument: midihub synth, parameters: { wave: saw } }\n"
                        + text, file: "c.yaml", registry: GraphFixtures.registry)
    }

    @Test func aNodesParameterTakesAChoicesName() throws {
        let patch = try parse("")
        #expect(patch.graph.node("piano")?.parameters["wave"] == 3)
        let wrong = #"nodes: { piano: { instrument: midihub synth, parameters: { wave: Sawtooth } } }"#
        let error = #expect(throws: PatchError.self) { try Patch.parse(yaml: wrong, file: "c.yaml", registry: GraphFixtures.registry) }
        #expect(error?.reason == "'wave' has no choice 'Sawtooth'")
        #expect(error?.fix == "use one of preset, sine, triangle, saw, square, or a number")
        let any = try Patch.parse(yaml: "nodes: { piano: { instrument: midihub synth, parameters: { wave: SQUARE, cutoff: 300 } } }",
                                  file: "c.yaml", registry: GraphFixtures.registry)
        #expect(any.graph.node("piano")?.parameters == ["wave": 4, "cutoff": 300])
    }

    @Test func aMappingToAnEnumerationStepsThroughItsChoices() throws {
        let patch = try parse("""
            mappings:
              - { control: cc 1, to: piano.wave }
              - { control: cc 2, to: piano.wave, range: [sine, saw] }
              - { control: cc 3, to: piano.wave, values: [square, sine] }
              - { control: cc 4, to: piano.cutoff }
            """)
        #expect(patch.mappings.map { $0.targets[0].values } == [[0, 1, 2, 3, 4], [1, 2, 3], [4, 1], nil])
        let target = patch.mappings[0].targets[0]
        #expect([0.0, 0.3, 0.49, 0.51, 1].map { target.value(at: $0) } == [0, 1, 2, 2, 4])
    }

    @Test func aSceneSetsAChoiceByName() throws {
        let patch = try parse("scenes:\n  lead: { set: { piano.wave: square } }\n")
        #expect(patch.scenes.first?.values == [SceneValue(node: "piano", parameter: "wave", value: 4)])
    }

    @Test func aChoiceIsFoundIgnoringCaseAndAValueNamedByIt() {
        let info = ParameterInfo(id: 0, name: "wave", range: 0...4, defaultValue: 0, unit: .generic, choices: GraphFixtures.waves)
        #expect(info.value(named: "Saw") == 3)
        #expect(info.value(named: "sawtooth") == nil)
        #expect(info.enumerates)
        let toggle = ParameterInfo(id: 0, name: "mute", range: 0...1, defaultValue: 0, unit: .boolean)
        #expect(toggle.choices == [ParameterChoice("off", 0), ParameterChoice("on", 1)])
        let marks = ParameterInfo(id: 0, name: "gain", range: -90...24, defaultValue: 0, unit: .decibels,
                                  choices: [ParameterChoice("+5", 5)], enumerates: false)
        #expect(!marks.enumerates && marks.value(named: "+5") == 5)
    }
}
