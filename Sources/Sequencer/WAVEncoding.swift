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

    /// Appends `frames` interleaved stereo frames to `bytes`, clipping to [-1, 1] for integers.
    public static func encode(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int,
                              format: WAVSampleFormat, into bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + frames * 2 * format.bytesPerSample)
        for i in 0..<frames {
            for sample in [left[i], right[i]] {
                switch format {
                case .s16:
                    append(UInt16(bitPattern: Int16(quantize(sample, scale: 32767))), to: &bytes)
                case .s24:
                    let value = UInt32(bitPattern: Int32(quantize(sample, scale: 8_388_607)))
                    bytes += [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
                              UInt8(truncatingIfNeeded: value >> 16)]
                case .f32:
                    append(sample.bitPattern, to: &bytes)
                }
            }
        }
    }

    @inline(__always)
    private static func quantize(_ sample: Float, scale: Float) -> Int {
        let clipped = sample.isNaN ? 0 : min(max(sample, -1), 1)
        return Int((clipped * scale).rounded())
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
