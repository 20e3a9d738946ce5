import Foundation

/// Reads the first channel of a PCM (16/24/32-bit) or 32-bit float WAV file, enough to
/// measure what the renderers wrote.
struct WAVReader {
    var sampleRate: Int
    var channels: Int
    var frameCount: Int
    /// The first channel, as floats in -1…1 (filled only when asked for).
    var left: [Float]

    var seconds: Double { Double(frameCount) / Double(sampleRate) }

    init(url: URL, readSamples: Bool = false) throws {
        let bytes = [UInt8](try Data(contentsOf: url))
        func fail(_ problem: String) -> BenchmarkError { BenchmarkError(description: "\(url.path): \(problem)") }
        func u16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WAVE".utf8) else {
            throw fail("not a RIFF WAVE file")
        }
        var offset = 12
        var format = 0, bits = 0, channels = 0, rate = 0
        var data: Range<Int>?
        while offset + 8 <= bytes.count {
            let id = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            var size = u32(offset + 4)
            let body = offset + 8
            if id == "data" && (size == 0 || size == 0xFFFF_FFFF || body + size > bytes.count) { size = bytes.count - body }
            if id == "fmt " {
                format = u16(body)
                channels = u16(body + 2)
                rate = u32(body + 4)
                bits = u16(body + 14)
                if format == 0xFFFE { format = u16(body + 24) }
            } else if id == "data" {
                data = body..<body + size
            }
            offset = body + size + (size & 1)
        }
        guard let data, channels > 0, rate > 0, [16, 24, 32].contains(bits), format == 1 || format == 3 else {
            throw fail("unsupported WAV layout (format \(format), \(bits) bits, \(channels) channels)")
        }
        let frameBytes = channels * bits / 8
        sampleRate = rate
        self.channels = channels
        frameCount = data.count / frameBytes
        left = []
        guard readSamples else { return }
        left.reserveCapacity(frameCount)
        for frame in 0..<frameCount {
            let at = data.lowerBound + frame * frameBytes
            switch (format, bits) {
            case (3, 32): left.append(Float(bitPattern: UInt32(u32(at))))
            case (_, 16): left.append(Float(Int16(bitPattern: UInt16(u16(at)))) / 32_768)
            case (_, 24): left.append(Float(Int32(bitPattern: UInt32(u32(at - 1) & ~0xFF))) / 2_147_483_648)
            default: left.append(Float(Int32(bitPattern: UInt32(u32(at)))) / 2_147_483_648)
            }
        }
    }
}
