import HubTestSupport
import MIDICore
import RenderCore
import Testing
import Hub

/// Widgets that act (`HubSnapshot.widget(named:)`, `HubSnapshot.action(of:on:at:)`): each kind's
/// answer to `widgets.set`, `widgets.press` and `widgets.release`.
@Suite struct HubCoreWidgetTests {
    static let widgets = [
        Widget(kind: .slider, title: "Filter", node: "piano", parameter: "cutoff"),
        Widget(kind: .knob, title: "mix", node: "verb", parameter: "mix"),
        Widget(kind: .switch, title: "Wet", node: "verb", parameter: "mix"),
        Widget(kind: .momentary, title: "Hold", node: "verb", parameter: "mix"),
        Widget(kind: .button, title: "Panic", node: "trigger", parameter: "panic"),
        Widget(kind: .label, title: "Tempo", node: "transport", parameter: "tempo"),
        Widget(kind: .meter, title: "Voices", node: "piano", parameter: "active voices", showsOutput: true),
        Widget(kind: .selector, title: "scene", node: "scene", parameter: ""),
    ]

    static func core() throws -> HubCore {
        let scenes = [Scene(name: "verse", values: []), Scene(name: "chorus", values: [])]
        return try HubCore(state: HubState(graph: GraphFixtures.chain(), scenes: scenes, widgets: widgets),
                           registry: GraphFixtures.registry)
    }

    /// What `gesture` on the widget `name` names does in `core`.
    static func action(_ gesture: WidgetGesture, _ name: String, in core: HubCore) throws(HubRefusal) -> WidgetAction {
        try core.snapshot.action(of: gesture, on: core.snapshot.widget(named: name), at: 1)
    }

    @Test func aWidgetIsNamedByItsTargetFirstThenByItsTitle() throws {
        let core = try Self.core()
        #expect(try core.snapshot.widget(named: "verb.mix").kind == .knob, "the first with that target")
        #expect(try core.snapshot.widget(named: "Wet").kind == .switch)
        #expect(try core.snapshot.widget(named: "scene").kind == .selector)
        #expect(throws: HubRefusal(.unknownWidget, "no widget 'Volume'", fix: "use one of piano.cutoff, verb.mix, verb.mix, "
                                   + "verb.mix, trigger.panic, transport.tempo, piano.active voices, scene")) {
            try core.snapshot.widget(named: "Volume")
        }
    }

    @Test func aSliderMovesItsParameterClampedAndATouchChangesNothing() throws {
        let core = try Self.core()
        #expect(try Self.action(.set(440), "Filter", in: core) == .setParameter(node: "piano", parameter: "cutoff", value: 440))
        #expect(try Self.action(.set(30000), "piano.cutoff", in: core) == .setParameter(node: "piano", parameter: "cutoff", value: 20000))
        #expect(try Self.action(.set(-5), "verb.mix", in: core) == .setParameter(node: "verb", parameter: "mix", value: 0))
        #expect(try Self.action(.press, "Filter", in: core) == .nothing)
        #expect(try Self.action(.release, "verb.mix", in: core) == .nothing)
    }

    @Test func aSwitchGoesToItsBottomOrTopAndAPressTogglesIt() throws {
        var core = try Self.core()
        #expect(try Self.action(.set(0.5), "Wet", in: core) == .setParameter(node: "verb", parameter: "mix", value: 1), "the middle: top")
        #expect(try Self.action(.set(0.49), "Wet", in: core) == .setParameter(node: "verb", parameter: "mix", value: 0))
        #expect(try Self.action(.press, "Wet", in: core) == .setParameter(node: "verb", parameter: "mix", value: 1), "from 0.3: on")
        var sink = RecordingSink()
        _ = try core.handle(.setParameter(node: "verb", "mix", to: 1, at: 1, frameTime: nil), into: &sink)
        #expect(try Self.action(.press, "Wet", in: core) == .setParameter(node: "verb", parameter: "mix", value: 0), "from 1: off")
        #expect(try Self.action(.release, "Wet", in: core) == .nothing)
    }

    @Test func aMomentaryIsAtItsTopWhileHeld() throws {
        let core = try Self.core()
        #expect(try Self.action(.press, "Hold", in: core) == .setParameter(node: "verb", parameter: "mix", value: 1))
        #expect(try Self.action(.release, "Hold", in: core) == .setParameter(node: "verb", parameter: "mix", value: 0))
        #expect(try Self.action(.set(0.7), "Hold", in: core) == .setParameter(node: "verb", parameter: "mix", value: 0.7))
    }

    @Test func aButtonFiresItsTriggerOnAPressOrAValueAboveZero() throws {
        let core = try Self.core()
        #expect(try Self.action(.press, "trigger.panic", in: core) == .fireTrigger("panic"))
        #expect(try Self.action(.set(1), "Panic", in: core) == .fireTrigger("panic"))
        #expect(try Self.action(.set(0), "Panic", in: core) == .nothing)
        #expect(try Self.action(.release, "Panic", in: core) == .nothing)
    }

    @Test func aSelectorSwitchesToTheSceneAtAnIndexAndIsNotPressed() throws {
        let core = try Self.core()
        #expect(try Self.action(.set(1), "scene", in: core) == .switchScene("chorus"))
        #expect(try Self.action(.set(0.4), "scene", in: core) == .switchScene("verse"))
        #expect(throws: HubRefusal(.invalidValue, "widget 'scene' has no scene at index 2",
                                   fix: "give an index from 0 to 1: 0 verse, 1 chorus")) {
            try Self.action(.set(2), "scene", in: core)
        }
        #expect(throws: HubRefusal(.badParams, "widget 'scene' is a selector: it takes widgets.set with a scene's index",
                                   fix: "send widgets.set with \"value\" the index of the scene in its options")) {
            try Self.action(.press, "scene", in: core)
        }
    }

    @Test(arguments: ["Tempo", "Voices"], [WidgetGesture.set(1), .press, .release])
    func labelsAndMetersAreReadOnly(name: String, gesture: WidgetGesture) throws {
        let core = try Self.core()
        #expect {
            try Self.action(gesture, name, in: core)
        } throws: { error in
            (error as? HubRefusal)?.kind == .readOnly
        }
    }

    @Test func aWidgetWhoseNodeIsGoneIsRefusedAsTheNodeIs() throws {
        var core = try Self.core()
        var sink = RecordingSink()
        _ = try core.handle(.editGraph(.remove("verb"), at: 1), into: &sink)
        #expect(throws: HubRefusal.unknownNode("verb")) { try Self.action(.press, "Hold", in: core) }
    }
}
