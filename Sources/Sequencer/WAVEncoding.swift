/// Sample formats of the WAV writer.
public enum WAVSampleFormat: String, Sendable, CaseIterable {
    /// 16-bit signed integer PCM.
    case s16
    /// 24-bit signed integer PCM (packed, 3 bytes).
    case s24
    /// 32-bit IEEE float.
    case f32

    public var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s24: 3
        case .f32: 4
        }
    }
}

/// Pure WAV (RIFF) encoding: header bytes and interleaved little-endian samples.
///
/// - Thread: any.
public enum WAVEncoding {
    /// The header for stereo audio of `dataBytes` bytes. Float files carry the `fact` chunk
    /// the format asks for non-PCM data.
    public static func header(format: WAVSampleFormat, sampleRate: Int, channels: Int = 2, dataBytes: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        let isFloat = format == .f32
        let fmtSize: UInt32 = isFloat ? 18 : 16
        let frames = dataBytes / UInt32(channels * format.bytesPerSample)
        let riffSize = 4 + (8 + fmtSize) + (isFloat ? 12 : 0) + 8 + dataBytes
        bytes += Array("RIFF".utf8); append(riffSize, to: &bytes)
        bytes += Array("WAVE".utf8)
        bytes += Array("fmt ".utf8); append(fmtSize, to: &bytes)
        append(UInt16(isFloat ? 3 : 1), to: &bytes)
        append(UInt16(channels), to: &bytes)
        append(UInt32(sampleRate), to: &bytes)
        append(UInt32(sampleRate * channels * format.bytesPerSample), to: &bytes)
        append(UInt16(channels * format.bytesPerSample), to: &bytes)
        append(UInt16(format.bytesPerSample * 8), to: &bytes)
        if isFloat {
            append(UInt16(0), to: &bytes)
            bytes += Array("fact".utf8); append(UInt32(4), to: &bytes); append(frames, to: &bytes)
        }
        bytes += Array("data".utf8); append(dataBytes, to: &bytes)
        return bytes
    }

    /// Writes `frames` interleaved stereo frames at `output` (which must hold
    /// `frames × 2 × format.bytesPerSample` bytes), clipping to [-1, 1] for integers.
    /// - Returns: the bytes written.
    @discardableResult
    public static func encode(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int,
                              format: WAVSampleFormat, to output: UnsafeMutableRawPointer) -> Int {
        switch format {
        case .s16:
            for i in 0..<frames {
                output.storeBytes(of: Int16(quantize(left[i], scale: 32767)).littleEndian, toByteOffset: 4 * i, as: Int16.self)
                output.storeBytes(of: Int16(quantize(right[i], scale: 32767)).littleEndian, toByteOffset: 4 * i + 2, as: Int16.self)
            }
        case .s24:
            for i in 0..<frames {
                store24(quantize(left[i], scale: 8_388_607), at: output + 6 * i)
                store24(quantize(right[i], scale: 8_388_607), at: output + 6 * i + 3)
            }
        case .f32:
            for i in 0..<frames {
                output.storeBytes(of: left[i].bitPattern.littleEndian, toByteOffset: 8 * i, as: UInt32.self)
                output.storeBytes(of: right[i].bitPattern.littleEndian, toByteOffset: 8 * i + 4, as: UInt32.self)
            }
        }
        return frames * 2 * format.bytesPerSample
    }

    @inline(__always)
    private static func store24(_ value: Int32, at output: UnsafeMutableRawPointer) {
        let bits = UInt32(bitPattern: value)
        output.storeBytes(of: UInt8(truncatingIfNeeded: bits), as: UInt8.self)
        output.storeBytes(of: UInt8(truncatingIfNeeded: bits >> 8), toByteOffset: 1, as: UInt8.self)
        output.storeBytes(of: UInt8(truncatingIfNeeded: bits >> 16), toByteOffset: 2, as: UInt8.self)
    }

    @inline(__always)
    private static func quantize(_ sample: Float, scale: Float) -> Int32 {
        let clipped = sample.isNaN ? 0 : min(max(sample, -1), 1)
        return Int32((clipped * scale).rounded())
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
