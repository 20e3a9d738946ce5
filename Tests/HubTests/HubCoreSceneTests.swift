import HubTestSupport
import MIDICore
import RenderCore
import Testing
import Hub

/// Scenes switched through `HubCore`: values at one frame, a patch scene asks for its file.
@Suite struct HubCoreSceneTests {
    static let verse = Scene(name: "verse", program: 0, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800),
                                                                 SceneValue(node: "up", parameter: "semitones", value: 0),
                                                                 SceneValue(node: "organ", parameter: "level", value: 1)])
    static let setlist = Scene(name: "bridge", program: 5, values: [], patch: "/setlists/bridge.yaml")

    static func core() throws -> HubCore {
        try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: [verse, setlist]), registry: GraphFixtures.registry)
    }

    /// Applies `input`; the effects.
    static func handle(_ input: HubInput, _ core: inout HubCore) throws -> [HubEffect] {
        var sink = RecordingSink()
        return try core.handle(input, into: &sink)
    }

    @Test func aSceneSetsItsValuesAtOneFrameAndSkipsWhatIsGone() throws {
        var core = try Self.core()
        let effects = try Self.handle(.switchScene("verse", at: 7.25), &core)
        #expect(core.snapshot.currentScene == "verse")
        #expect(core.snapshot.scenes.first { $0.name == core.snapshot.currentScene } == Self.verse)
        #expect(effects.contains(.setNodeParameter(node: "piano", parameter: "cutoff", value: 800, at: 7.25)))
        #expect(core.snapshot.processorParameters("up")?.value(named: "semitones") == 0)
        #expect(effects.contains(.warning("scene 'verse': organ.level not set: no node 'organ'")))
        #expect(Array(effects.suffix(2)) == [.save(core.snapshot.state), .sceneChanged("verse")])
        #expect(effects.filter { if case .save = $0 { true } else { false } }.count == 1)
        #expect(core.snapshot.state.graph.node("piano")?.parameters["cutoff"] == 800)
    }

    /// A program change a mapping reads (`scene.program`) switches to the scene of that program, if any.
    @Test func aProgramChangeSwitchesToItsScene() throws {
        var core = try Self.core()
        let keyboard = PortFixtures.launchkey
        _ = try Self.handle(.portsListed([keyboard], directSenders: [], connections: [], changed: false, at: 0), &core)
        _ = try Self.handle(.setMappings([Mapping(source: .programChange, targets: [
            MappingTarget(node: "scene", parameter: "program", low: 0, high: 127)])], graphRevision: nil), &core)
        func program(_ number: UInt8) throws -> [HubEffect] {
            try Self.handle(.midi(.programChange(channel: 0, program: number), from: keyboard.address, at: 1), &core)
        }
        #expect(try program(3).isEmpty)
        #expect(core.snapshot.currentScene == nil)
        #expect(try program(0).last == .sceneChanged("verse"))
        #expect(core.snapshot.currentScene == "verse")
    }

    @Test func aPatchSceneAsksForItsFileAndIsCurrentOnceInstalled() throws {
        var core = try Self.core()
        let effects = try Self.handle(.switchScene("bridge", at: 1), &core)
        #expect(effects == [.loadPatchFile("/setlists/bridge.yaml", scene: "bridge")])
        #expect(core.snapshot.currentScene == nil)
        #expect(try Self.handle(.scenePatchInstalled("bridge"), &core) == [.sceneChanged("bridge")])
        #expect(core.snapshot.currentScene == "bridge")
    }

    @Test func anUnknownSceneIsRefusedWithTheKnownOnes() throws {
        var core = try Self.core()
        #expect(throws: HubRefusal(.unknownScene, "no scene 'chorus'", fix: "use one of verse, bridge")) {
            try Self.handle(.switchScene("chorus", at: 0), &core)
        }
    }
}
