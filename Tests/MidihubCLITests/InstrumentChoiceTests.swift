import ArgumentParser
import Synth
import TestSupport
import Testing
@testable import MidihubCLI

/// Which instrument `render`, `play` and `synth` pick: the SoundFont instrument with an
/// installed General MIDI font (fluid-soundfont-gm is one of the runtime packages), the
/// built-in synth when asked for by name or by its preset bank.
struct InstrumentChoiceTests {
    private func choice(_ arguments: [String], presetBank: String? = nil) throws -> InstrumentChoice {
        try InstrumentChoice(InstrumentArguments.parse(arguments), presetBank: presetBank)
    }

    private static let bank = Repository.root.appendingPathComponent("patches/presets").path

    @Test func anInstalledGeneralMIDIFontIsTheDefault() throws {
        #expect(InstrumentChoice.defaultFont() != nil, "no GM font installed: scripts/install-deps installs fluid-soundfont-gm")
        #expect(try choice([]).instrument is SoundFontNode)
        #expect(try choice(["--soundfont", "/usr/share/sounds/sf2/FluidR3_GM.sf2"]).instrument is SoundFontNode)
    }

    @Test func thePresetBankOrTheNamePicksTheSynth() throws {
        #expect(try choice([], presetBank: Self.bank).instrument is SynthNode)
        #expect(try choice(["--instrument", "synth"], presetBank: Self.bank).instrument is SynthNode)
        #expect(try choice(["--instrument", "soundfont"], presetBank: Self.bank).instrument is SoundFontNode)
    }

    @Test func aFileThatIsNotAFontIsBadInput() throws {
        let ending = ArgumentErrorTests.ending(["render", "sequences/little-song.mid", "-o", "/tmp/never.wav",
                                                "--soundfont", Repository.root.appendingPathComponent("README.md").path])
        #expect(ending.exitCode == 2)
        #expect(ending.text?.contains("README.md: RIFF at byte 0: not a SoundFont") == true, "\(ending.text ?? "")")
        #expect(ending.text?.contains("(fix: ") == true)
    }
}
