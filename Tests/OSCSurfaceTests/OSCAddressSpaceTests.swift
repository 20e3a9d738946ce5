import Control
import MIDICore
import OSC
import OSCSurface
import Testing

@Suite struct OSCAddressSpaceTests {
    let space = OSCAddressSpace(
        nodes: [NodeSummary.fixture(id: "synth", parameters: [
            ParameterSummary(id: 0, name: "volume", min: 0, max: 2, default: 1, unit: "generic", value: 1),
            ParameterSummary(id: 1, name: "osc1 wave", min: 0, max: 3, default: 0, unit: "generic", value: 0,
                             choices: [.init(label: "sine", value: 1), .init(label: "saw", value: 3)], enumeration: true),
            ParameterSummary(id: 2, name: "voices", direction: .output, min: nil, max: nil, default: nil, unit: "count", value: 3),
        ]), NodeSummary.fixture(id: "piano", parameters: [
            ParameterSummary(id: 0, name: "volume", min: 0, max: 1, default: 1, unit: "generic", value: 0.5),
        ])],
        scenes: [SceneSummary(name: "verse", program: 1, current: true, values: []),
                 SceneSummary(name: "big chorus", program: 2, current: false, values: [])],
        triggers: [TriggerSummary(name: "panic", action: "panic", state: "ready")],
        widgets: [WidgetSummary(kind: "slider", title: "Filter", target: "synth.cutoff", min: -48, max: 48, value: 0),
                  WidgetSummary(kind: "button", title: "Panic", target: "trigger.panic"),
                  WidgetSummary(kind: "label", title: "Hello", target: "")])

    @Test func addressesNameEveryInputWithSpacesAsUnderscores() {
        let addresses = space.entries.map(\.address)
        #expect(addresses.contains("/node/synth/volume"))
        #expect(addresses.contains("/node/synth/osc1_wave/norm"))
        #expect(addresses.contains("/scene/big_chorus"))
        #expect(addresses.contains("/trigger/panic"))
        #expect(addresses.contains("/transport/play"))
        #expect(!addresses.contains { $0.hasPrefix("/node/synth/voices") })  // an output
    }

    @Test func aParameterIsSetInItsUnitsOrOverItsRange() throws {
        #expect(try space.requests(for: OSCMessage("/node/synth/volume", [.float(1.5)]))
            == [.setParameter(ParameterAssignment(node: "synth", parameter: "volume", value: 1.5))])
        #expect(try space.requests(for: OSCMessage("/node/synth/osc1_wave/norm", [.double(0.5)]))
            == [.setParameter(ParameterAssignment(node: "synth", parameter: "osc1 wave", value: 1.5))])
        #expect(try space.requests(for: OSCMessage("/node/synth/volume/norm", [.float(7)]))
            == [.setParameter(ParameterAssignment(node: "synth", parameter: "volume", value: 2))])
    }

    @Test func aParameterWithChoicesIsSetByName() throws {
        #expect(try space.requests(for: OSCMessage("/node/synth/osc1_wave", [.string("Saw")]))
            == [.setParameter(ParameterAssignment(node: "synth", parameter: "osc1 wave", value: 3))])
        let refusal = #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/node/synth/osc1_wave", [.string("square")])) }
        #expect(refusal?.description.contains("/node/synth/osc1_wave has no choice 'square'") == true)
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/node/synth/volume", [.string("loud")])) }
    }

    @Test func aPatternAsksOfEveryAddressItMatches() throws {
        let requests = try space.requests(for: OSCMessage("/node/*/volume", [.int(1)]))
        #expect(Set(requests) == [.setParameter(ParameterAssignment(node: "synth", parameter: "volume", value: 1)),
                                  .setParameter(ParameterAssignment(node: "piano", parameter: "volume", value: 1))])
    }

    @Test func scenesTriggersAndTheTransport() throws {
        #expect(try space.requests(for: OSCMessage("/scene", [.string("big chorus")])) == [.switchScene("big chorus")])
        #expect(try space.requests(for: OSCMessage("/scene/big_chorus")) == [.switchScene("big chorus")])
        #expect(try space.requests(for: OSCMessage("/trigger/panic", [.bool(true)])) == [.fireTrigger("panic")])
        #expect(try space.requests(for: OSCMessage("/trigger/panic", [.float(0)])).isEmpty)  // the button's release
        #expect(try space.requests(for: OSCMessage("/transport/tempo", [.float(96)]))
            == [.transport(TransportRequest(action: .tempo, bpm: 96))])
        #expect(try space.requests(for: OSCMessage("/transport/seek", [.int(9)]))
            == [.transport(TransportRequest(action: .seek, position: "9"))])
        #expect(try space.requests(for: OSCMessage("/register", [.int(9001)])) == [.register(port: 9001)])
    }

    @Test func widgetsMoveOrPressAndRoutesConnect() throws {
        #expect(try space.requests(for: OSCMessage("/widget/Filter", [.float(-12)])) == [.setWidget("Filter", -12)])
        #expect(try space.requests(for: OSCMessage("/widget/Panic", [.bool(true)])) == [.pressWidget("Panic")])
        #expect(try space.requests(for: OSCMessage("/widget/Panic", [.int(0)])) == [.releaseWidget("Panic")])
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/widget/Hello", [.float(1)])) }  // a label
        #expect(try space.requests(for: OSCMessage("/connect", [.string("node:keys"), .string("node:synth")]))
            == [.connect(ConnectionSummary(source: "node:keys", destination: "node:synth"))])
        #expect(try space.requests(for: OSCMessage("/disconnect", [.string("20:0"), .string("128:0")]))
            == [.disconnect(ConnectionSummary(source: "20:0", destination: "128:0"))])
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/connect", [.string("node:keys")])) }
    }

    @Test func midiIsPlayedIntoTheHubOrSentToAPort() throws {
        let noteOn = OSCArgument.midi(OSCMIDI(status: 0x90, data1: 60, data2: 100))
        let program = OSCArgument.midi(OSCMIDI(status: 0xC1, data1: 5, data2: 99))  // data 2 unused
        #expect(try space.requests(for: OSCMessage("/midi", [noteOn, program]))
            == [.playMIDI([.noteOn(channel: 0, note: 60, velocity: 100), .programChange(channel: 1, program: 5)])])
        #expect(try space.requests(for: OSCMessage("/midi/Midi_Through:0", [noteOn]))
            == [.sendMIDI([.noteOn(channel: 0, note: 60, velocity: 100)], port: "Midi_Through:0")])
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/midi", [])) }
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/midi", [.float(60)])) }
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/midi", [.midi(OSCMIDI(status: 0x3C, data1: 1))])) }
        #expect(OSCAddressSpace.midiFeedback(.noteOff(channel: 2, note: 64, velocity: 0))
            == OSCMessage("/midi", [.midi(OSCMIDI(status: 0x82, data1: 64, data2: 0))]))
        #expect(OSCAddressSpace.midiFeedback(.sysEx([0x7E, 0x7F, 0x09, 0x01])) == nil)
    }

    @Test func badMessagesSayWhatToSend() {
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/node/synth/volum", [.float(1)])) }
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/node/synth/volume", [.string("loud")])) }
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/node/x*/volume", [.float(1)])) }
        #expect(throws: OSCSurfaceError.self) { try space.requests(for: OSCMessage("/register", [.int(0)])) }
        do {
            _ = try space.requests(for: OSCMessage("/node/synth/volum", [.float(1)]))
        } catch {
            #expect(error.description == "no OSC address /node/synth/volum in this patch "
                + "(fix: send one of the addresses docs/osc.md lists, e.g. /node/NODE/PARAMETER)")
        }
    }

    @Test func feedbackGoesOnTheAddressASurfaceSends() {
        #expect(space.feedback(for: .parameterChanged(node: "synth", parameter: "osc1 wave", value: 3))
            == [OSCMessage("/node/synth/osc1_wave", [.float(3)]), OSCMessage("/node/synth/osc1_wave/norm", [.float(1)])])
        #expect(space.feedback(for: .sceneChanged(scene: "verse")) == [OSCMessage("/scene", [.string("verse")])])
        #expect(space.feedback(for: .triggerFired(trigger: "panic")) == [OSCMessage("/trigger/panic", [.bool(true)])])
        #expect(space.feedback(for: .log(level: .info, message: "x")).isEmpty)
    }
}

extension NodeSummary {
    static func fixture(id: String, parameters: [ParameterSummary]) -> NodeSummary {
        NodeSummary(id: id, name: id, kind: "instrument", subtype: "msyn", manufacturer: "mhub", version: "1.0.0",
                    parameters: parameters)
    }
}
