import Testing
@testable import RenderCore

/// The four-at-a-time loops agree with the one-sample rule on every length (the vector part
/// and the tail), and touch nothing past `frames`.
struct SampleMathTests {
    @Test(arguments: [0, 1, 3, 4, 7, 8, 33])
    func addScaleAndPeakMatchTheOneSampleRule(frames: Int) {
        let source = (0..<40).map { Float($0 % 7) - 3.25 }
        var target = (0..<40).map { Float($0) * 0.5 }
        let before = target
        target.withUnsafeMutableBufferPointer { SampleMath.add(source, into: $0.baseAddress!, frames: frames) }
        #expect(target == (0..<40).map { $0 < frames ? before[$0] + source[$0] : before[$0] })

        var scaled = source
        scaled.withUnsafeMutableBufferPointer { SampleMath.scale($0.baseAddress!, by: -2, frames: frames) }
        #expect(scaled == (0..<40).map { $0 < frames ? source[$0] * -2 : source[$0] })

        let peak = SampleMath.peak(source, frames: frames)
        #expect(peak == source.prefix(frames).map(abs).max() ?? 0)
    }
}
