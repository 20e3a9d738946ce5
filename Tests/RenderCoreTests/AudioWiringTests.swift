import RenderCore
import Testing

@Suite struct AudioWiringTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    /// Renders `blocks` blocks of `program` through an engine with `crossfade`; the left and right channel of each frame.
    private func render(_ engine: RenderEngine, blocks: Int) -> (left: [Float], right: [Float]) {
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        var left: [Float] = [], right: [Float] = []
        for _ in 0..<blocks {
            engine.render(frames: 64, bus: buffer.bus, host: HostSync())
            left += (0..<64).map { buffer.left[$0] }
            right += (0..<64).map { buffer.right[$0] }
        }
        return (left, right)
    }

    @Test func theChainSumsSourcesAndRunsEachEffectOnWhatCameBefore() {
        let chain = AudioWiring.chain(takesInput: [false, false, true, false, true])
        #expect(chain.inputs == [[], [], [0, 1], [], [2, 3]])
        #expect(chain.toOutput == [4])
        #expect(AudioWiring.chain(takesInput: [false, false]).toOutput == [0, 1])
    }

    @Test func anInsertEffectChangesOnlyItsOwnChain() {
        // piano (1, 1) → invert → out; bass (0.25, 0.5) → out.
        let piano = ConstantNode(left: 1, right: 1), invert = GainNode(gain: -1), bass = ConstantNode(left: 0.25, right: 0.5)
        let wiring = AudioWiring(inputs: [[], [0], []], toOutput: [1, 2])
        let engine = RenderEngine(crossfade: .off)
        engine.install(RenderProgram(nodes: [piano, invert, bass], wiring: wiring, format: format))
        let sound = render(engine, blocks: 2)
        #expect(sound.left.allSatisfy { $0 == -0.75 } && sound.right.allSatisfy { $0 == -0.5 },
                "−piano + bass, not −(piano + bass): \(sound.left[0]), \(sound.right[0])")
    }

    @Test func aBusSumsItsInputsAndANodeOutsideTheOutputIsSilent() {
        // a and b both into one effect (a bus); c renders but reaches no output.
        let a = ConstantNode(left: 0.5, right: 0), b = ConstantNode(left: 0, right: 0.25), c = ConstantNode(left: 9, right: 9)
        let bus = GainNode(gain: 2)
        let wiring = AudioWiring(inputs: [[], [], [0, 1], []], toOutput: [2])
        let engine = RenderEngine(crossfade: .off)
        engine.install(RenderProgram(nodes: [a, b, bus, c], wiring: wiring, format: format))
        let sound = render(engine, blocks: 1)
        #expect(sound.left.allSatisfy { $0 == 1 } && sound.right.allSatisfy { $0 == 0.5 })
        #expect(bus.processCount == 1)
    }

    @Test func oneSourceFeedsTwoParallelEffects() {
        let source = ConstantNode(left: 1, right: 1), half = GainNode(gain: 0.5), quarter = GainNode(gain: 0.25)
        let wiring = AudioWiring(inputs: [[], [0], [0]], toOutput: [1, 2])
        let engine = RenderEngine(crossfade: .off)
        engine.install(RenderProgram(nodes: [source, half, quarter], wiring: wiring, format: format))
        #expect(render(engine, blocks: 1).left.allSatisfy { $0 == 0.75 })
    }

    @Test func reRoutingAChainCrossfadesTheTwoPaths() {
        // Before: piano → invert → out. After: piano → out, invert left without input.
        let piano = SineNode(frequency: 440, level: 0.5), invert = GainNode(gain: -1)
        let engine = RenderEngine(crossfade: Crossfade(seconds: 0.010, curve: .linear))
        engine.install(RenderProgram(nodes: [piano, invert], wiring: AudioWiring(inputs: [[], [0]], toOutput: [1]), format: format))
        engine.events.push(.noteOn(channel: 0, note: 69, velocity: 100))
        let before = render(engine, blocks: 10).left
        engine.install(RenderProgram(nodes: [piano, invert], wiring: AudioWiring(inputs: [[], []], toOutput: [0]), format: format))
        let after = render(engine, blocks: 20).left
        let steady = zip(before.dropFirst(), before).map { abs($0 - $1) }.max() ?? 0
        let all = before + after
        let steps = (before.count..<all.count).map { abs(all[$0] - all[$0 - 1]) }
        #expect(steps.max() ?? 0 < 1.5 * steady, "no click where the path changes")
        #expect(abs(after[240]) < 0.3, "halfway the inverted and the dry path mostly cancel: \(after[240])")
        #expect(piano.processCount == 30, "the kept instrument renders once per block, fade or not")
        // After the fade, the dry sine: the inverted path is gone.
        let late = after[640...]
        #expect(late.contains { $0 > 0.45 } && !late.contains { $0 > 0.5001 })
    }

    @Test func aSendOutputFeedsItsOwnBusAndIsHandedOnlyWhenWired() {
        // piano (main 1, send 0.25) → out; piano.fx → double → out.
        let piano = SendingNode(main: 1, send: 0.25), double = GainNode(gain: 2)
        let wiring = AudioWiring(inputs: [[], [AudioWiring.Port(0, output: 1)]], toOutput: [0, 1])
        let engine = RenderEngine(crossfade: .off)
        engine.install(RenderProgram(nodes: [piano, double], wiring: wiring, format: format))
        let sound = render(engine, blocks: 2)
        #expect(sound.left.allSatisfy { $0 == 1.5 }, "dry 1 + the send 0.25 doubled: \(sound.left[0])")
        #expect(piano.blocksWithSends == 2)

        let alone = SendingNode(main: 1, send: 0.25)
        let unwired = RenderEngine(crossfade: .off)
        unwired.install(RenderProgram(nodes: [alone], format: format))
        #expect(render(unwired, blocks: 1).left.allSatisfy { $0 == 1 })
        #expect(alone.blocksWithSends == 0, "no one takes the send: the node is not handed one")
    }
}
