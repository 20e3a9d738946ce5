@testable import Synth
import Testing

/// The delay line's four-frame swept read (the chorus's) against its one-frame read.
@Suite struct DelayLineTests {
    /// A line of `length` holding `count` writes of a ramp (1, 2, 3, …).
    static func line(length: Int, writes count: Int) -> DelayLine {
        var line = DelayLine(length: length)
        for value in 0..<count { line.write(Float(value + 1)) }
        return line
    }

    @Test func fourFramesReadWhatOneFrameReadsGives() {
        let line = Self.line(length: 97, writes: 250)  // wrapped twice
        defer { line.deallocate() }
        let delays = SIMD4<Float>(1, 2.25, 40.5, 95.75)
        let positions = SIMD4(repeating: Float(line.index)) - delays
        let four = line.read(at: positions)
        for lane in 0..<4 {
            #expect(abs(four[lane] - line.read(delay: delays[lane])) < 1e-4, "lane \(lane)")
        }
        var written = DelayLine(length: 97)
        defer { written.deallocate() }
        let ramp = (0..<250).map { Float($0 + 1) }
        ramp.withUnsafeBufferPointer { ramp in
            for first in stride(from: 0, to: 250, by: 50) { written.write(ramp.baseAddress! + first, count: 50) }
        }
        #expect(written.index == line.index)
        #expect(written.read(at: positions) == four, "a block write is the writes one at a time")
    }

    /// A position a hair below the line's start, which wraps to just below its length: in
    /// floats that rounds to the length itself, one past the last sample. It reads the
    /// line's first sample (the chorus, and the stereo delay, read past the line there: the
    /// chorus clicked about once a minute of a long render).
    @Test func aPositionThatRoundsToTheEndReadsTheStart() {
        let line = Self.line(length: 2162, writes: 2162)
        defer { line.deallocate() }
        let below = -Float.ulpOfOne / 4
        #expect(below + 2162 == 2162, "the rounding this test is about")
        let value = line.read(at: SIMD4(below, 0, 1, 2))
        #expect(value[0] == line.data[0] && value[1] == line.data[0] && value[2] == line.data[1])
        // The one-frame read (the stereo delay's) at the same point: 5 frames back from index 5.
        let short = Self.line(length: 2162, writes: 2162 + 5)
        defer { short.deallocate() }
        let delay: Float = 5.000_000_5
        #expect(Float(short.index) - delay < 0 && Float(short.index) - delay + 2162 == 2162)
        #expect(abs(short.read(delay: delay) - short.data[0]) < 0.01)
    }
}
