import RenderCore
import Testing
@testable import Synth

@Suite struct NoteGateTests {
    let format = RenderFormat(sampleRate: 48_000, maxFrames: 64)

    /// Runs `gate` over `blocks` blocks of a constant (1, 1) input; `events` by block; the left channel.
    private func run(_ gate: NoteGateNode, blocks: Int, events: [Int: [RenderEvent]]) -> [Float] {
        gate.prepare(format: format)
        let buffer = AudioBuffer(channels: 2, capacity: 64)
        var left: [Float] = []
        for block in 0..<blocks {
            buffer.left.update(repeating: 1, count: 64)
            buffer.right.update(repeating: 1, count: 64)
            (events[block] ?? []).withUnsafeBufferPointer { list in
                gate.process(ProcessContext(frames: 64, events: list, bus: buffer.bus, host: HostSync()))
            }
            left += (0..<64).map { buffer.left[$0] }
        }
        return left
    }

    @Test func aNoteOpensTheGateOnItsFrameAndItsReleaseClosesIt() {
        // Note-on at frame 100 (block 1, frame 36), note-off at frame 4836 (block 75, frame 36).
        let output = run(NoteGateNode(), blocks: 150, events: [
            1: [.noteOn(channel: 0, note: 60, velocity: 100, frame: 36)],
            75: [.noteOff(channel: 0, note: 60, frame: 36)],
        ])
        #expect(output[..<100].allSatisfy { $0 == 0 }, "closed before the note")
        #expect(output[100] > 0, "opens on the note's frame")
        #expect(output[100 + 96] > 0.99, "open within the 2 ms attack")
        #expect(output[4_835] > 0.999, "open while the note is held")
        #expect(output[4_837] < output[4_835], "closing from the note-off's frame")
        #expect(output[4_836 + 3_840] < 0.002, "closed 60 dB within the 80 ms release")
    }

    @Test func asADuckerHeldNotesPushTheSoundDownByTheDepth() {
        let ducker = NoteGateNode()
        let output = run(ducker, blocks: 100, events: [
            0: [.parameter(node: 0, id: NoteGateNode.Parameter.duck.rawValue, value: 1),
                .parameter(node: 0, id: NoteGateNode.Parameter.depth.rawValue, value: 0.75)],
            10: [.noteOn(channel: 9, note: 36, velocity: 100, frame: 0)],
        ])
        #expect(abs(output[600] - 1) < 1e-3, "no note: the sound passes")
        #expect(abs(output[6_000] - 0.25) < 1e-3, "a held kick ducks it to 1 − depth: \(output[6_000])")
    }

    @Test func allNotesOffOpensADuckerAndANoteOffWithoutANoteOnChangesNothing() {
        let output = run(NoteGateNode(), blocks: 100, events: [
            0: [.noteOff(channel: 0, note: 60, frame: 0), .noteOn(channel: 0, note: 62, velocity: 90, frame: 1)],
            50: [.controlChange(channel: 0, controller: 123, value: 0, frame: 0)],
        ])
        #expect(output[3_000] > 0.999, "the stray note-off did not cancel the held note")
        #expect(output[6_000] < 0.01, "all notes off closes the gate")
    }
}
