// Conversion of captured device samples into the engine's Float samples.
// Runs on the capture thread for every period: no allocation.

extension PCMSampleFormat {
    /// Reads `count` samples in this format (little-endian) from `source` into
    /// `destination` as Floats in [-1, 1).
    /// - Thread: capture (any; allocates nothing)
    public func decode(_ source: UnsafeRawPointer, count: Int, into destination: UnsafeMutablePointer<Float>) {
        switch self {
        case .float32LE:
            for index in 0..<count {
                let bits = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: index &* 4, as: UInt32.self))
                let sample = Float(bitPattern: bits)
                destination[index] = sample.isFinite ? sample : 0
            }
        case .signed32LE:
            for index in 0..<count {
                let value = Int32(littleEndian: source.loadUnaligned(fromByteOffset: index &* 4, as: Int32.self))
                destination[index] = Float(Double(value) / 2_147_483_648)
            }
        case .signed24Packed3LE:
            for index in 0..<count {
                let offset = index &* 3
                let bytes = UInt32(source.load(fromByteOffset: offset, as: UInt8.self))
                    | UInt32(source.load(fromByteOffset: offset &+ 1, as: UInt8.self)) << 8
                    | UInt32(source.load(fromByteOffset: offset &+ 2, as: UInt8.self)) << 16
                let value = Int32(bitPattern: bytes << 8) >> 8  // sign-extends bit 23
                destination[index] = Float(value) / 8_388_608
            }
        case .signed16LE:
            for index in 0..<count {
                let value = Int16(littleEndian: source.loadUnaligned(fromByteOffset: index &* 2, as: Int16.self))
                destination[index] = Float(value) / 32_768
            }
        }
    }
}
