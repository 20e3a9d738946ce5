import RtMidiBackend
import Testing

@Suite struct JackPortNameTests {
    @Test func parsesTheHubNamespace() throws {
        let name = try JackPortName(parsing: "jack:fluidsynth:midi_00")
        #expect(name.fullName == "fluidsynth:midi_00")
        #expect(name.client == "fluidsynth")
        #expect(name.port == "midi_00")
        #expect(name.hubName == "jack:fluidsynth:midi_00")
    }

    @Test func keepsColonsInsideThePortName() throws {
        let name = try JackPortName(parsing: "jack:a2j:Midi Through [14] (capture): Port-0")
        #expect(name.client == "a2j")
        #expect(name.port == "Midi Through [14] (capture): Port-0")
    }

    @Test(arguments: ["fluidsynth:midi_00", "jack:", "jack:client", "jack::port", "jack:client:"])
    func rejectsNamesOutsideTheNamespace(_ text: String) {
        #expect(throws: JackMIDIError.notAJackPortName(text)) { try JackPortName(parsing: text) }
    }

    @Test func notFoundErrorListsWhatExists() {
        let error = JackMIDIError.portNotFound(
            JackPortName(jackName: "synth:in"), direction: .destination,
            available: [JackPortName(jackName: "midihub:in")]
        )
        #expect(error.description == "JACK MIDI: no destination port jack:synth:in (destination ports now: jack:midihub:in); check the name with `jack_lsp`")
    }
}
