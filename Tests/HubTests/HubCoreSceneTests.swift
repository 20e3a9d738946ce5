import RenderCore
import Testing
@testable import Hub

/// Scenes switched through `HubCore`: values at one frame, a patch scene asks for its file.
@Suite struct HubCoreSceneTests {
    static let verse = Scene(name: "verse", program: 0, values: [SceneValue(node: "piano", parameter: "cutoff", value: 800),
                                                                 SceneValue(node: "up", parameter: "semitones", value: 0),
                                                                 SceneValue(node: "organ", parameter: "level", value: 1)])
    static let setlist = Scene(name: "bridge", program: 5, values: [], patch: "/setlists/bridge.yaml")

    static func core() throws -> HubCore {
        try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: [verse, setlist]), registry: GraphFixtures.registry)
    }

    @Test func aSceneSetsItsValuesAtOneFrameAndSkipsWhatIsGone() throws {
        var core = try Self.core()
        let (scene, effects) = try core.switchScene(named: "verse", at: 7.25)
        #expect(scene == Self.verse)
        #expect(core.currentScene == "verse")
        #expect(effects.contains(.setNodeParameter(node: "piano", parameter: "cutoff", value: 800, at: 7.25)))
        #expect(core.router.processorParameters("up")?.value(named: "semitones") == 0)
        #expect(effects.contains(.warning("scene 'verse': organ.level not set: no node 'organ'")))
        #expect(Array(effects.suffix(2)) == [.save(core.state), .sceneChanged("verse")])
        #expect(effects.filter { if case .save = $0 { true } else { false } }.count == 1)
        #expect(core.state.graph.node("piano")?.parameters["cutoff"] == 800)
    }

    @Test func aProgramChangeSwitchesToItsScene() throws {
        var core = try Self.core()
        #expect(core.switchScene(program: 3, at: 1).isEmpty)
        #expect(core.currentScene == nil)
        #expect(core.switchScene(program: 0, at: 1).last == .sceneChanged("verse"))
    }

    @Test func aPatchSceneAsksForItsFileAndIsCurrentOnceInstalled() throws {
        var core = try Self.core()
        let (_, effects) = try core.switchScene(named: "bridge", at: 1)
        #expect(effects == [.loadPatchFile("/setlists/bridge.yaml", scene: "bridge")])
        #expect(core.currentScene == nil)
        #expect(core.scenePatchInstalled(scene: "bridge") == [.sceneChanged("bridge")])
        #expect(core.currentScene == "bridge")
    }

    @Test func anUnknownSceneIsRefusedWithTheKnownOnes() throws {
        var core = try Self.core()
        #expect(throws: HubRefusal(.unknownScene, "no scene 'chorus'", fix: "use one of verse, bridge")) {
            try core.switchScene(named: "chorus", at: 0)
        }
    }
}
