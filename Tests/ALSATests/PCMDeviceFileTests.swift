import ALSA
import Foundation
import Testing

/// Real alsa-lib, no sound card: the `file` plugin records what `PCMDevice`
/// plays into a raw file (over the `null` PCM), and the tests read it back.
@Suite("PCM device through alsa-lib's file plugin")
struct PCMDeviceFileTests {
    /// A fresh raw output path for one test.
    private func scratchFile() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("midihub-pcm-\(UUID().uuidString).raw")
    }

    /// `frames` of a stereo 440 Hz sine at 48 kHz: left at `amplitude`, right inverted.
    private func stereoSine(frames: Int, amplitude: Float = 0.8) -> [Float] {
        (0..<frames).flatMap { frame -> [Float] in
            let value = amplitude * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            return [value, -value]
        }
    }

    /// Plays `samples` to a file PCM in blocks of `blockFrames` and returns the device
    /// settings and the file's bytes.
    private func play(
        _ samples: [Float], blockFrames: Int, configuration: PCMConfiguration
    ) throws -> (PCMSettings, [UInt8]) {
        let url = scratchFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let device = try PCMDevice(name: "file:\"\(url.path)\",raw", configuration: configuration)
        let blockSamples = blockFrames * configuration.channels
        try samples.withUnsafeBufferPointer { all in
            for start in stride(from: 0, to: all.count, by: blockSamples) {
                let end = min(start + blockSamples, all.count)
                try device.write(frames: UnsafeBufferPointer(rebasing: all[start..<end]))
            }
        }
        try device.drain()
        device.close()
        #expect(device.statistics.underruns == 0)
        return (device.settings, [UInt8](try Data(contentsOf: url)))
    }

    @Test("a sine arrives sample for sample in the forced format", arguments: PCMSampleFormat.allCases)
    func sineInEachFormat(format: PCMSampleFormat) throws {
        let samples = stereoSine(frames: 24_000)
        let (settings, bytes) = try play(
            samples, blockFrames: 256, configuration: PCMConfiguration(formats: [format]))
        #expect(settings.format == format)
        #expect(bytes.count == samples.count * format.bytesPerSample)
        let decoded = decodeSamples(bytes, as: format)
        let worst = zip(samples, decoded).map { abs(Double($0) - $1) }.max() ?? .infinity
        #expect(worst <= quantizationStep(of: format) * 0.5 + 1e-12)
        // 0.5 s of 440 Hz: 440 upward zero crossings, ±1 for the phase at the ends.
        let left = stride(from: 0, to: decoded.count, by: 2).map { decoded[$0] }
        let upward = zip(left, left.dropFirst()).filter { $0 < 0 && $1 >= 0 }.count
        #expect(abs(upward - 220) <= 1)
    }

    @Test("blocks longer than a period and of odd lengths are written whole")
    func unevenBlocks() throws {
        let samples = stereoSine(frames: 10_007)
        let (settings, bytes) = try play(
            samples, blockFrames: 1_000, configuration: PCMConfiguration(periodFrames: 64, formats: [.float32LE]))
        #expect(settings.periodFrames == 64)
        #expect(decodeSamples(bytes, as: .float32LE) == samples.map { Double($0) })
    }

    @Test("samples beyond full scale are clipped, not wrapped")
    func clipping() throws {
        let (_, bytes) = try play(
            [1.7, -3, 0.25, .nan], blockFrames: 2, configuration: PCMConfiguration(formats: [.signed16LE]))
        #expect(decodeSamples(bytes, as: .signed16LE) == [1, -1, (0.25 * 32_767).rounded() / 32_767, 0])
    }

    @Test("with the default preference a device that takes anything gets FLOAT_LE")
    func prefersFloat() throws {
        let device = try PCMDevice(name: "null")
        #expect(device.settings.format == .float32LE)
        #expect(device.settings.sampleRate == 48_000)
        #expect(device.settings.periodFrames == 256 && device.settings.bufferFrames == 1_024)
    }

    @Test("a device without float gets S32_LE, the next preference")
    func fallsBackToInteger() throws {
        let integerOnly = """
            pcm.integerOnly { type lfloat slave { pcm { type null } format FLOAT_LE } }
            """
        let device = try PCMDevice(name: "integerOnly", alsaConfiguration: integerOnly)
        #expect(device.settings.format == .signed32LE)
    }

    @Test("a device that offers none of the formats is refused with the fix")
    func noFormat() {
        let aLawOnly = "pcm.aLawOnly { type alaw slave { pcm { type null } format S16_LE } }"
        #expect {
            _ = try PCMDevice(name: "aLawOnly", alsaConfiguration: aLawOnly)
        } throws: { error in
            guard case PCMError.noSupportedFormat(name: "aLawOnly", tried: PCMSampleFormat.preferenceOrder) = error
            else { return false }
            return "\(error)".contains("plughw:")
        }
    }

    @Test("the requested rate, period and buffer are reported back as accepted")
    func reportsSettings() throws {
        let configuration = PCMConfiguration(sampleRate: 96_000, periodFrames: 128, bufferFrames: 384)
        let device = try PCMDevice(name: "null", configuration: configuration)
        #expect(device.settings.sampleRate == 96_000)
        #expect(device.settings.periodFrames == 128 && device.settings.bufferFrames == 384)
        #expect(device.settings.channels == 2 && device.settings.deviceName == "null")
    }
}
