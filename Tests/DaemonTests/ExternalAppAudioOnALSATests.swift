import ALSA
import AudioHost
import Foundation
import Hub
import Sequencer
import SetupViews
import Synth
import Testing
import TestSupport
@testable import Daemon

/// docs/jack.md's patch with FluidSynth's sound coming back from JACK, played by a hub on
/// ALSA (a file through alsa-lib's `file` plugin): the external node is made and rendered,
/// silent, and one line says why and what to do.
@Suite struct ExternalAppAudioOnALSATests {
    @Test func anExternalNodesJackSoundOnALSAIsSilentAndSaidInOneLine() throws {
        let block = try #require(try Repository.blocks(in: "docs/jack.md").first { $0.text.contains("audio: \"jack:fluidsynth:*\"") })
        let patch = try Patch.parse(yaml: block.text, file: block.description, registry: NodeTypes.registry)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-extaudio-\(UUID().uuidString).raw").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let driver = try AudioDriver(device: "file:\"\(path)\",raw",
                                     options: AudioDriverOptions(pcm: PCMConfiguration(formats: [.float32LE]), realtimePriority: false))
        let rack = AudioRack(driver: driver, catalog: NodeCatalog(bank: try PresetBankLoader.load(directory: AudioRackGraphTests.bankFolder)))
        defer { try? rack.stop() }
        let warnings = try rack.install(patch.graph, stopped: [])
        #expect(warnings == ["node 'fluid' takes its sound from JACK ('jack:fluidsynth:*'), and the hub plays to ALSA: "
                             + "it is silent (fix: serve --audio jack)"])
        #expect(rack.instance(of: "fluid") is JackInputNode)
        #expect(rack.isRendered("room") && rack.isRendered("strip"))
    }
}
