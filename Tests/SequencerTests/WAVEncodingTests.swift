import Foundation
import Testing
@testable import Sequencer

/// The samples `WAVEncoding.encode` writes: the vector path (four frames at a time) and the
/// frames after it agree with one rule — NaN as 0, clipped to ±1, × 32767, to the nearest.
struct WAVEncodingTests {
    @Test func sixteenBitSamplesAreClippedScaledAndRoundedAlikeInEveryFrame() {
        let values: [Float] = [0, 0.5, -0.5, 1.5, -2, .nan, 1, -1, 100.5 / 32767, -100.5 / 32767, 3 / 32767, .infinity,
                               -.infinity, 0.25, 1e-9]
        let expected: [Int16] = [0, 16384, -16384, 32767, -32767, 0, 32767, -32767, 100, -100, 3, 32767, -32767, 8192, 0]
        // Left and right differ (right is left reversed) so a swapped or misplaced side shows.
        for frames in [values.count, 4, 5, 3] {
            let left = Array(values.prefix(frames)), right = Array(left.reversed())
            var bytes = [UInt8](repeating: 0xAA, count: frames * 4 + 4)
            let written = bytes.withUnsafeMutableBytes { raw in
                WAVEncoding.encode(left: left, right: right, frames: frames, format: .s16, to: raw.baseAddress!)
            }
            #expect(written == frames * 4)
            let samples = (0..<frames * 2).map { Int16(bitPattern: UInt16(bytes[2 * $0]) | UInt16(bytes[2 * $0 + 1]) << 8) }
            let wantLeft = Array(expected.prefix(frames))
            #expect(samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element) == wantLeft)
            #expect(samples.enumerated().filter { $0.offset % 2 == 1 }.map(\.element) == wantLeft.reversed())
            #expect(bytes[(frames * 4)...].allSatisfy { $0 == 0xAA })
        }
    }
}
