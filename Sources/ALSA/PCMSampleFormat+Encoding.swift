// Conversion of the engine's Float samples into a device sample format.
// Runs on the render thread for every block: no allocation, no branches per
// sample beyond the clip, output written little-endian whatever the host order.

extension PCMSampleFormat {
    /// Writes `source` (any layout; interleaved frames in practice) into
    /// `destination` in this format, one sample after the other, clipping to
    /// [-1, 1]. NaN becomes silence. `destination` must hold at least
    /// `source.count * bytesPerSample` bytes.
    /// - Thread: render (any; allocates nothing)
    public func encode(_ source: UnsafeBufferPointer<Float>, into destination: UnsafeMutableRawPointer) {
        switch self {
        case .float32LE:
            for (index, sample) in source.enumerated() {
                destination.storeBytes(
                    of: clipped(sample).bitPattern.littleEndian,
                    toByteOffset: index &* 4, as: UInt32.self)
            }
        case .signed32LE:
            for (index, sample) in source.enumerated() {
                let value = Int32(scaled(sample, by: Int32.max))
                destination.storeBytes(of: value.littleEndian, toByteOffset: index &* 4, as: Int32.self)
            }
        case .signed24Packed3LE:
            for (index, sample) in source.enumerated() {
                let value = UInt32(bitPattern: Int32(scaled(sample, by: PCMSampleFormat.signed24Max)))
                let offset = index &* 3
                destination.storeBytes(of: UInt8(truncatingIfNeeded: value), toByteOffset: offset, as: UInt8.self)
                destination.storeBytes(of: UInt8(truncatingIfNeeded: value >> 8), toByteOffset: offset &+ 1, as: UInt8.self)
                destination.storeBytes(of: UInt8(truncatingIfNeeded: value >> 16), toByteOffset: offset &+ 2, as: UInt8.self)
            }
        case .signed16LE:
            for (index, sample) in source.enumerated() {
                let value = Int16(scaled(sample, by: Int16.max))
                destination.storeBytes(of: value.littleEndian, toByteOffset: index &* 2, as: Int16.self)
            }
        }
    }

    /// The largest 24-bit sample value, 2^23 - 1.
    private static let signed24Max: Int32 = 8_388_607

    /// The clipped sample times `fullScale`, rounded to the nearest integer step.
    /// In Double: the product is exact there, and a Float cannot even hold 2^31 - 1
    /// (rounding it up would overflow Int32).
    @inline(__always)
    private func scaled<Integer: BinaryInteger>(_ sample: Float, by fullScale: Integer) -> Double {
        (Double(clipped(sample)) * Double(fullScale)).rounded()
    }

    /// Clips to [-1, 1]; NaN becomes 0 so that integer conversion cannot trap.
    @inline(__always)
    private func clipped(_ sample: Float) -> Float {
        if sample >= 1 { return 1 }
        if sample <= -1 { return -1 }
        return sample.isNaN ? 0 : sample
    }
}
