#if arch(x86_64)
import _Builtin_intrinsics.intel
#endif

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

    /// Magnitudes below this are silence in the file: integer formats write them as 0 (half
    /// a step, rounded to nearest); float files take 24-bit's half step (-144 dB).
    public var silence: Float {
        switch self {
        case .s16: 0.5 / 32_768
        case .s24, .f32: 0.5 / 8_388_608
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
            let whole = encodeS16Fours(left: left, right: right, frames: frames, to: output)
            for i in whole..<frames {
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

    /// 16-bit frames four at a time, as `quantize` has them (NaN as 0, clipped, scaled to
    /// ±32767, rounded to the nearest): on x86-64 with SSE2, 4 frames in a few instructions
    /// where the scalar form calls libm's `roundf` per sample. Returns the frames written
    /// (a multiple of 4; elsewhere 0, and the caller writes them all).
    @inline(__always)
    private static func encodeS16Fours(left: UnsafePointer<Float>, right: UnsafePointer<Float>, frames: Int,
                                       to output: UnsafeMutableRawPointer) -> Int {
        #if arch(x86_64)
        let low = _mm_set1_ps(-1), high = _mm_set1_ps(1), scale = _mm_set1_ps(32767)
        @inline(__always) func quantized(_ samples: UnsafePointer<Float>) -> SIMD2<Int64> {
            let x = _mm_loadu_ps(samples)
            let numbers = _mm_and_ps(x, _mm_cmpord_ps(x, x))
            return _mm_cvtps_epi32(_mm_mul_ps(_mm_min_ps(_mm_max_ps(numbers, low), high), scale))
        }
        var i = 0
        while i &+ 4 <= frames {
            let l = quantized(left + i), r = quantized(right + i)
            // L0 R0 L1 R1 and L2 R2 L3 R3, packed to 16 bits (each within ±32767).
            let frames16 = _mm_packs_epi32(_mm_unpacklo_epi32(l, r), _mm_unpackhi_epi32(l, r))
            _mm_storeu_si128(output.advanced(by: 4 &* i).assumingMemoryBound(to: SIMD2<Int64>.self), frames16)
            i &+= 4
        }
        return i
        #else
        return 0
        #endif
    }

    /// One sample as an integer of `scale`: NaN as 0, clipped to ±1, rounded to the nearest
    /// (a tie to the even neighbour, as the vector form's conversion does).
    @inline(__always)
    private static func quantize(_ sample: Float, scale: Float) -> Int32 {
        let clipped = sample.isNaN ? 0 : min(max(sample, -1), 1)
        return Int32((clipped * scale).rounded(.toNearestOrEven))
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
