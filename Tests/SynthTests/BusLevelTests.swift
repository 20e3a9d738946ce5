import Foundation
import MIDICore
import RenderCore
import Sequencer
import SoundFont
import Synth
import Testing
import TestSupport

/// The reverb and chorus buses a General MIDI render feeds (`GeneralMIDIBuses`, as
/// `midihub render` and `serve`'s default setup set them) against FluidSynth's with its
/// default settings, through the same font: what each bus adds to the dry sound (the
/// render with the bus less the render without it) within 5 dB of what FluidSynth's adds,
/// and the whole mix within 3 dB. Dry, the two already match (`FidelityTests`).
@Suite(.serialized) struct BusLevelTests {
    /// Piano, strings and a pad on three channels, CC 91 and 93 at 100 (so every font
    /// sends), chords for 6 s, then 2 s of tails.
    static func song() -> MIDIFile {
        func tick(_ seconds: Double) -> Tick { Tick(UInt64((seconds * FidelityTests.ticksPerSecond).rounded())) }
        var events: [TrackEvent] = []
        for (channel, program) in [(UInt8(0), UInt8(0)), (1, 48), (2, 89)] {
            events += [TrackEvent(tick: 0, .midi(.programChange(channel: channel, program: program))),
                       TrackEvent(tick: 0, .midi(.controlChange(channel: channel, controller: 91, value: 100))),
                       TrackEvent(tick: 0, .midi(.controlChange(channel: channel, controller: 93, value: 100)))]
            for (index, root) in [48, 53, 55, 48].enumerated() {
                for step in [0, 4, 7] {
                    let key = UInt8(root + step + 12 * Int(channel)), start = 0.1 + 1.5 * Double(index)
                    events.append(TrackEvent(tick: tick(start), .midi(.noteOn(channel: channel, note: key, velocity: 90))))
                    events.append(TrackEvent(tick: tick(start + 1.2), .midi(.noteOff(channel: channel, note: key, velocity: 0))))
                }
            }
        }
        return MIDIFile(format: 0, tracks: [MIDITrack(events: events.sorted { $0.tick < $1.tick }, endTick: tick(8))])
    }

    @Test func theReverbAndChorusBusesAddWhatFluidSynthsAdd() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bus-levels-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = Self.song()
        let theirDry = try FidelityTests.fluidSynthRender(file, in: folder).left
        let theirReverb = try FidelityTests.fluidSynthRender(file, in: folder, reverb: true).left
        let theirChorus = try FidelityTests.fluidSynthRender(file, in: folder, chorus: true).left
        let theirMix = try FidelityTests.fluidSynthRender(file, in: folder, reverb: true, chorus: true).left
        let ourDry = try Self.render(file, outputs: [0]), ourReverb = try Self.render(file, outputs: [0, 1])
        let ourChorus = try Self.render(file, outputs: [0, 2]), ourMix = try Self.render(file, outputs: [0, 1, 2])
        let reverb = Self.decibels(ourReverb, less: ourDry) - Self.decibels(theirReverb, less: theirDry)
        let chorus = Self.decibels(ourChorus, less: ourDry) - Self.decibels(theirChorus, less: theirDry)
        let mix = Self.decibels(ourMix) - Self.decibels(theirMix)
        #expect(abs(reverb) < 5, "the reverb bus adds \(reverb) dB more than FluidSynth's")
        #expect(abs(chorus) < 5, "the chorus bus adds \(chorus) dB more than FluidSynth's")
        #expect(abs(mix) < 3, "the whole mix is \(mix) dB louder than FluidSynth's")
    }

    /// The SoundFont instrument in `StandardGraph`, heard through `outputs` (0 dry, 1 the
    /// reverb bus, 2 the chorus bus).
    static func render(_ file: MIDIFile, outputs: [Int]) throws -> [Float] {
        let graph = StandardGraph(playing: SoundFontNode(font: try SoundFont.open(FidelityTests.fontPath)))
        let wiring = AudioWiring(inputs: graph.wiring.inputs, toOutput: outputs.map { AudioWiring.Port($0) })
        let renderer = OfflineRenderer(schedule: RenderSchedule(file: file, sampleRate: FidelityTests.rate),
                                       nodes: graph.nodes, wiring: wiring, blockSize: 512, tail: .fixed(seconds: 0))
        var sink = MemorySink()
        try renderer.render(into: &sink)
        return sink.left
    }

    /// The level (dB, RMS) of `samples`, or of what they add to `base` (the same render
    /// without one bus), over the shorter of the two.
    static func decibels(_ samples: [Float], less base: [Float]? = nil) -> Double {
        let count = min(samples.count, base?.count ?? samples.count)
        var energy = 0.0
        for i in 0..<count {
            let value = Double(samples[i] - (base?[i] ?? 0))
            energy += value * value
        }
        return 10 * log10(energy / Double(max(count, 1)) + 1e-30)
    }
}
