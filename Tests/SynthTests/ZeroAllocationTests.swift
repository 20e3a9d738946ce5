import AllocationCounter
import RenderCore
import Sequencer
import SoundFont
import Testing
@testable import Synth

@Suite(.serialized) struct ZeroAllocationTests {
    /// Counts the allocations `body` makes on the calling thread.
    private func allocations(_ body: () -> Void) -> Int {
        AllocationCounter.session {
            AllocationCounter.watchCurrentThread()
            body()
        }
    }

    @Test func theCounterSeesAllocations() {
        let counted = allocations {
            let array = [Int](repeating: 7, count: Int.random(in: 100...200))
            #expect(array.count >= 100)
        }
        #expect(counted > 0, "the malloc counter (CMallocCounter) is not active, so the zero-allocation test would prove nothing")
    }

    @Test func renderingTenThousandBlocksAllocatesNothing() throws {
        let folder = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let bank = try PresetBankLoader.load(directory: "/" + folder + "/patches/presets")
        let nodes: [any Node] = [SynthNode(bank: bank, voiceCapacity: 64), ChorusNode(), StereoDelayNode(), ReverbNode(),
                                 MixerStripNode(), EqualizerNode(), CompressorNode(), NoteGateNode(), MetronomeNode()]
        let frames = 64
        let engine = RenderEngine(ringCapacity: 256)
        let program = RenderProgram(nodes: nodes, format: RenderFormat(sampleRate: 48_000, maxFrames: frames))
        let output = AudioBuffer(channels: 2, capacity: frames)
        let script = Self.script(frames: frames)
        var host = HostSync(transport: .playing)
        let format = RenderFormat(sampleRate: 48_000, maxFrames: frames)
        // Warm-up, not counted: the Swift runtime instantiates generic type metadata lazily, once
        // per process, on first use. It plays the script's first blocks (every event kind) and
        // one crossfade to a throwaway program, then returns to `program`.
        engine.install(RenderProgram(nodes: [SynthNode(bank: bank, voiceCapacity: 64), nodes[1]], format: format))
        for block in 0..<24 {
            if block == 12 { engine.install(program) }
            for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
            engine.render(frames: frames, bus: output.bus, host: host)
        }
        // The counted swaps crossfade (the engine's default 15 ms): a replaced instrument (a
        // fresh, never rendered synth), a removed effect and a reordered chain, so both
        // programs render inside the counted region.
        let swapped = RenderProgram(nodes: [SynthNode(bank: bank, voiceCapacity: 64), nodes[3], nodes[1]], format: format)
        let counted = allocations {
            script.withUnsafeBufferPointer { script in
                for block in 0..<10_000 {
                    if block % 2_500 == 0 {
                        // Control side, not counted: publish a recompiled graph; the render call adopts it.
                        AllocationCounter.stopWatching()
                        engine.install(block % 5_000 == 0 ? swapped : program)
                        AllocationCounter.watchCurrentThread()
                    }
                    for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
                    engine.render(frames: frames, bus: output.bus, host: host)
                    host = host.advanced(by: frames)
                }
            }
        }
        #expect(counted == 0, "the render path allocated \(counted) times")
        #expect(engine.renderedBlocks == 10_024)
        #expect(nodes[0].outputValues.load(SynthNode.Output.activeVoices.rawValue) > 0)
    }

    /// Every event kind, on all 16 channels, at varied frames; made up front so the counted
    /// loop only copies plain values. Parameter events address nodes 0…8, ids 0…2 (0…3 on
    /// node 4, the mixer strip, whose solo is id 3); a quarter of the notes play node 7, the note gate.
    private static func script(frames: Int) -> [RenderEvent] {
            var script: [RenderEvent] = []
            for i in 0..<40_000 {
                let channel = UInt8(i % 16), note = UInt8(30 + (i * 7) % 70)
                let frame = UInt32((i * 13) % frames)
                // Every fourth note goes to the note gate (node 7), which MIDI plays too.
                let noteNode: UInt16 = i / 8 % 4 == 3 ? 7 : 0
                switch i % 8 {
                case 0, 3, 5:
                    var on = RenderEvent.noteOn(channel: channel, note: note, velocity: UInt8(20 + i % 100), frame: frame)
                    on.node = noteNode
                    script.append(on)
                case 1, 6:
                    var off = RenderEvent.noteOff(channel: channel, note: UInt8(30 + ((i - 1) * 7) % 70), frame: frame)
                    off.node = noteNode
                    script.append(off)
                case 2: script.append(.controlChange(channel: channel, controller: [1, 7, 10, 11, 64, 121][i / 8 % 6],
                                                     value: UInt8(i % 128), frame: frame))
                case 4: script.append(.pitchBend(channel: channel, value: UInt16((i * 97) % 16384), frame: frame))
                default:
                    let node = UInt16(i / 8 % 9)
                    script.append(.parameter(node: node, id: UInt32(i / 40 % (node == 4 ? 4 : 3)), value: Float(i % 100) / 100,
                                             frame: frame))
                }
            }
        return script
    }

    @Test func soundFontRenderingAllocatesNothing() throws {
        let font = try SoundFont.open("/usr/share/sounds/sf2/FluidR3_GM.sf2")
        let frames = 64
        let format = RenderFormat(sampleRate: 48_000, maxFrames: frames)
        let engine = RenderEngine(ringCapacity: 256)
        let soundfont = SoundFontNode(font: font, voiceCapacity: 64)
        let program = RenderProgram(nodes: [soundfont, ReverbNode()], format: format)
        let output = AudioBuffer(channels: 2, capacity: frames)
        let script = Self.script(frames: frames)
        var host = HostSync(transport: .playing)
        // Warm-up, not counted: the runtime's lazy metadata, and the first touch of every event kind.
        engine.install(program)
        for block in 0..<24 {
            for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
            engine.render(frames: frames, bus: output.bus, host: host)
        }
        // A second font node, swapped in with a crossfade inside the counted region.
        let replacement = SoundFontNode(font: font, voiceCapacity: 64)
        let swapped = RenderProgram(nodes: [replacement, ReverbNode()], format: format)
        let counted = allocations {
            script.withUnsafeBufferPointer { script in
                for block in 0..<10_000 {
                    if block == 5_000 {
                        AllocationCounter.stopWatching()
                        engine.install(swapped)
                        AllocationCounter.watchCurrentThread()
                    }
                    for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
                    engine.render(frames: frames, bus: output.bus, host: host)
                    host = host.advanced(by: frames)
                }
            }
        }
        #expect(counted == 0, "the soundfont render path allocated \(counted) times")
        #expect(replacement.outputValues.load(SoundFontNode.Output.activeVoices.rawValue) > 0, "the counted blocks played no notes")
        #expect(engine.renderedBlocks == 10_024)
    }

    /// The synth's knobs, every one of them turning across its whole range (switches,
    /// tempo-synced LFO, glide included) while notes start, bend and end on every channel.
    @Test func turningEveryKnobOfTheSynthAllocatesNothing() throws {
        let folder = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
        let bank = try PresetBankLoader.load(directory: "/" + folder + "/patches/presets")
        let frames = 64
        let format = RenderFormat(sampleRate: 48_000, maxFrames: frames)
        let engine = RenderEngine(ringCapacity: 256)
        let synth = SynthNode(bank: bank, voiceCapacity: 64)
        engine.install(RenderProgram(nodes: [synth], format: format))
        let output = AudioBuffer(channels: 2, capacity: frames)
        let script = Self.knobSweep(synth.parameters.dropFirst(2), frames: frames) { i, frame, channel in
            .pitchBend(channel: channel, value: UInt16((i * 97) % 16_384), frame: frame)
        }
        let counted = countedAllocations(rendering: script, with: engine, into: output, host: HostSync(tempo: 132, transport: .playing))
        #expect(counted == 0, "turning the synth's knobs allocated \(counted) times")
        #expect(synth.outputValues.load(SynthNode.Output.activeVoices.rawValue) > 0, "the counted blocks played no notes")
    }

    /// The soundfont instrument's sound parameters turning across their whole ranges, and
    /// SoundFont (MSB 120) and GS (MSB 1) NRPNs setting generator offsets, while notes start and end on
    /// every channel and the reverb and chorus sends are rendered.
    @Test func turningEveryKnobOfTheSoundFontInstrumentAllocatesNothing() throws {
        let font = try SoundFont.open("/usr/share/sounds/sf2/FluidR3_GM.sf2")
        let frames = 64
        let format = RenderFormat(sampleRate: 48_000, maxFrames: frames)
        let engine = RenderEngine(ringCapacity: 256)
        let soundfont = SoundFontNode(font: font, voiceCapacity: 64)
        let wiring = AudioWiring(inputs: [[]], toOutput: [0, AudioWiring.Port(0, output: 1), AudioWiring.Port(0, output: 2)])
        engine.install(RenderProgram(nodes: [soundfont], wiring: wiring, format: format))
        let output = AudioBuffer(channels: 2, capacity: frames)
        let nrpn: [(UInt8, UInt8)] = [(99, 120), (98, 8), (38, 0), (6, 40), (99, 120), (98, 34), (6, 70), (99, 120), (98, 51),
                                      (6, 66), (99, 120), (98, 9), (6, 70), (99, 1), (98, 0x20), (6, 30), (99, 1), (98, 0x63),
                                      (6, 90), (121, 0)]
        let script = Self.knobSweep(soundfont.parameters.dropFirst(3), frames: frames) { i, frame, channel in
            let (controller, value) = nrpn[(i / 4) % nrpn.count]
            return .controlChange(channel: channel, controller: controller, value: value, frame: frame)
        }
        let counted = countedAllocations(rendering: script, with: engine, into: output, host: HostSync(transport: .playing))
        #expect(counted == 0, "turning the soundfont instrument's knobs allocated \(counted) times")
        #expect(soundfont.outputValues.load(SoundFontNode.Output.activeVoices.rawValue) > 0, "the counted blocks played no notes")
    }
}

extension ZeroAllocationTests {
    /// 40,000 events, four a block of `frames`: notes starting and ending on every channel,
    /// `third(i, frame, channel)`, and one of `knobs` moved somewhere across its range.
    static func knobSweep(_ knobs: ArraySlice<ParameterInfo>, frames: Int,
                          third: (Int, UInt32, UInt8) -> RenderEvent) -> [RenderEvent] {
        (0..<40_000).map { i in
            let frame = UInt32((i * 13) % frames), channel = UInt8(i % 16)
            switch i % 4 {
            case 0: return .noteOn(channel: channel, note: UInt8(30 + (i * 7) % 70), velocity: 90, frame: frame)
            case 1: return .noteOff(channel: channel, note: UInt8(30 + ((i - 1) * 7) % 70), frame: frame)
            case 2: return third(i, frame, channel)
            default:
                let info = knobs[knobs.startIndex + (i / 4) % knobs.count]
                let position = Float((i * 37) % 101) / 100
                return .parameter(node: 0, id: info.id, value: info.range.lowerBound
                                  + position * (info.range.upperBound - info.range.lowerBound), frame: frame)
            }
        }
    }

    /// Renders `script` four events a block into `output`, the host's position advancing: 24
    /// blocks to warm up, then the allocations of the other 9,976 blocks, counted.
    func countedAllocations(rendering script: [RenderEvent], with engine: RenderEngine, into output: AudioBuffer,
                            host start: HostSync) -> Int {
        let frames = output.capacity
        var host = start
        for block in 0..<24 {
            for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
            engine.render(frames: frames, bus: output.bus, host: host)
        }
        return allocations {
            script.withUnsafeBufferPointer { script in
                for block in 24..<10_000 {
                    for offset in 0..<4 { engine.events.push(script[block * 4 + offset]) }
                    engine.render(frames: frames, bus: output.bus, host: host)
                    host = host.advanced(by: frames)
                }
            }
        }
    }
}
