import Hub
import SetupViews
import Testing
@testable import Daemon

@Suite struct NodeTypeListTests {
    @Test func everyTypeAPatchCanNameIsListedWithItsParametersAtTheirDefaults() {
        let types = GraphSummaries.types()
        let registry = NodeTypes.registry.types
        #expect(types.map(\.id) == registry.map(\.descriptor.name) + ProcessorConfig.typeNames)
        for type in registry {
            let listed = types.first { $0.id == type.descriptor.name }
            #expect(listed?.kind == type.descriptor.kind.rawValue)
            #expect(listed?.parameters.map(\.name) == type.parameters.map(\.name))
            #expect(listed?.parameters.allSatisfy { $0.value == $0.default } == true)
        }
        let transpose = types.first { $0.id == "transpose" }
        #expect(transpose?.kind == "midiProcessor")
        #expect(transpose?.parameters.first?.name == "semitones" && transpose?.parameters.first?.min == -48)
    }

    @Test func valuesAreTheirShortestDecimals() {
        let reverb = GraphSummaries.types().first { $0.id == "reverb" }
        #expect(reverb?.parameters.first { $0.name == "room size" }?.value == 0.7)
    }
}
