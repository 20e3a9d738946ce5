import ALSA
import Testing

/// Reads device-format bytes back as samples in [-1, 1], independently of the
/// encoder (also used by the device tests to check what reached the file).
func decodeSamples(_ bytes: [UInt8], as format: PCMSampleFormat) -> [Double] {
    let width = format.bytesPerSample
    return stride(from: 0, to: bytes.count - width + 1, by: width).map { offset in
        var pattern: UInt32 = 0
        for byte in 0..<width { pattern |= UInt32(bytes[offset + byte]) << (8 * byte) }
        switch format {
        case .float32LE: return Double(Float(bitPattern: pattern))
        case .signed32LE: return Double(Int32(bitPattern: pattern)) / 2_147_483_647
        case .signed24Packed3LE: return Double(Int32(bitPattern: pattern << 8) >> 8) / 8_388_607
        case .signed16LE: return Double(Int16(truncatingIfNeeded: pattern)) / 32_767
        }
    }
}

/// Encodes through the public encoder into a byte array.
func encodeSamples(_ samples: [Float], as format: PCMSampleFormat) -> [UInt8] {
    var bytes = [UInt8](repeating: 0xAA, count: samples.count * format.bytesPerSample)
    samples.withUnsafeBufferPointer { source in
        bytes.withUnsafeMutableBytes { format.encode(source, into: $0.baseAddress!) }
    }
    return bytes
}

/// The size of one quantization step of a format, in [-1, 1] units.
func quantizationStep(of format: PCMSampleFormat) -> Double {
    switch format {
    case .float32LE: 0
    case .signed32LE: 1.0 / 2_147_483_647
    case .signed24Packed3LE: 1.0 / 8_388_607
    case .signed16LE: 1.0 / 32_767
    }
}

@Suite("PCM sample formats")
struct PCMSampleFormatTests {
    @Test("16-bit values: scaled by 32767, rounded, clipped, NaN silent")
    func signed16Values() {
        let bytes = encodeSamples([0, 0.5, -0.5, 1, -1, 1.5, -2, .nan, .infinity], as: .signed16LE)
        let values = stride(from: 0, to: bytes.count, by: 2).map {
            Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
        }
        #expect(values == [0, 16384, -16384, 32767, -32767, 32767, -32767, 0, 32767])
    }

    @Test("24-bit packed: three little-endian bytes per sample")
    func signed24Bytes() {
        #expect(encodeSamples([0.5, -1, 0], as: .signed24Packed3LE) == [0x00, 0x00, 0x40, 0x01, 0x00, 0x80, 0, 0, 0])
    }

    @Test("32-bit integer: full scale does not overflow")
    func signed32FullScale() {
        let decoded = decodeSamples(encodeSamples([1, -1, 3, -3], as: .signed32LE), as: .signed32LE)
        #expect(decoded == [1, -1, 1, -1])
    }

    @Test("float: in-range samples pass unchanged, out-of-range ones are clipped")
    func floatClips() {
        let samples: [Float] = [0.123456, -0.999, 1.0001, -7, .nan]
        #expect(decodeSamples(encodeSamples(samples, as: .float32LE), as: .float32LE) == [
            Double(Float(0.123456)), Double(Float(-0.999)), 1, -1, 0,
        ])
    }

    @Test("every format round-trips a sweep within one quantization step", arguments: PCMSampleFormat.allCases)
    func roundTrip(format: PCMSampleFormat) {
        let samples = (0..<2001).map { Float($0 - 1000) / 1000 * 0.999 }
        let decoded = decodeSamples(encodeSamples(samples, as: format), as: format)
        #expect(decoded.count == samples.count)
        let worst = zip(samples, decoded).map { abs(Double($0) - $1) }.max() ?? .infinity
        #expect(worst <= quantizationStep(of: format) * 0.5 + 1e-12)
    }

    @Test("the encoder writes exactly count × bytesPerSample bytes", arguments: PCMSampleFormat.allCases)
    func writesNoFurther(format: PCMSampleFormat) {
        var bytes = [UInt8](repeating: 0xAA, count: 4 * format.bytesPerSample + 8)
        [Float](repeating: 0, count: 4).withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBytes { format.encode(source, into: $0.baseAddress!) }
        }
        #expect(bytes.prefix(4 * format.bytesPerSample).allSatisfy { $0 == 0 })
        #expect(bytes.suffix(8).allSatisfy { $0 == 0xAA })
    }

    @Test("names parse as ALSA names and short names, case-insensitive")
    func parsing() throws {
        #expect(PCMSampleFormat(argument: "S16_LE") == .signed16LE)
        #expect(PCMSampleFormat(argument: "float") == .float32LE)
        #expect(PCMSampleFormat(argument: "s24") == .signed24Packed3LE)
        #expect(PCMSampleFormat(argument: "s32_le") == .signed32LE)
        #expect(PCMSampleFormat(argument: "u8") == nil)
        #expect(try PCMSampleFormat.parseList(" s16 , float,s16") == [.signed16LE, .float32LE])
    }

    @Test("a bad format list names the bad entry and the accepted names")
    func parsingErrors() {
        #expect {
            try PCMSampleFormat.parseList("s16,mp3")
        } throws: { error in
            guard case PCMError.unknownSampleFormat("mp3") = error else { return false }
            return "\(error)".contains("S16_LE")
        }
        #expect(throws: PCMError.self) { try PCMSampleFormat.parseList(",") }
    }

    @Test("preference: float, then 32-bit, 24-bit, 16-bit")
    func preference() {
        #expect(PCMSampleFormat.preferenceOrder == [.float32LE, .signed32LE, .signed24Packed3LE, .signed16LE])
        #expect(Set(PCMSampleFormat.preferenceOrder) == Set(PCMSampleFormat.allCases))
    }
}
