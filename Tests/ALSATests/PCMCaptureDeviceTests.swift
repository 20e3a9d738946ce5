import ALSA
import Foundation
import Testing

/// Real alsa-lib, no sound card: the `file` plugin's `infile` feeds what `PCMCaptureDevice`
/// captures (over a `null` PCM) from a raw file the test wrote in the device format.
@Suite("PCM capture through alsa-lib's file plugin")
struct PCMCaptureDeviceTests {
    /// `frames` of a stereo 440 Hz sine at 48 kHz: left at 0.8, right inverted at half that.
    private func stereoSine(frames: Int) -> [Float] {
        (0..<frames).flatMap { frame -> [Float] in
            let value = 0.8 * Float(sin(2 * Double.pi * 440 * Double(frame) / 48_000))
            return [value, -value / 2]
        }
    }

    /// ALSA configuration text naming a capture PCM `recorded` that reads `path`.
    static func fileInput(_ path: String) -> String {
        "pcm.recorded { type file slave { pcm { type null } } file \"/dev/null\" infile \"\(path)\" format raw }"
    }

    @Test("what the file holds arrives as Floats in every format", arguments: PCMSampleFormat.allCases)
    func capturesEachFormat(format: PCMSampleFormat) throws {
        let samples = stereoSine(frames: 4_096)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-capture-\(UUID().uuidString).raw")
        defer { try? FileManager.default.removeItem(at: url) }
        var bytes = [UInt8](repeating: 0, count: samples.count * format.bytesPerSample)
        samples.withUnsafeBufferPointer { source in bytes.withUnsafeMutableBytes { format.encode(source, into: $0.baseAddress!) } }
        try Data(bytes).write(to: url)

        let device = try PCMCaptureDevice(name: "recorded", configuration: PCMConfiguration(periodFrames: 256, formats: [format]),
                                          alsaConfiguration: Self.fileInput(url.path))
        #expect(device.settings.format == format)
        #expect(device.settings.channels == 2)
        var captured: [Float] = []
        let period = UnsafeMutablePointer<Float>.allocate(capacity: 256 * 2)
        defer { period.deallocate() }
        while captured.count < 2_048 * 2 {
            let frames = try device.read(into: period, timeoutMilliseconds: 1_000)
            #expect(frames > 0, "a read timed out")
            guard frames > 0 else { break }
            captured += UnsafeBufferPointer(start: period, count: frames * 2)
        }
        // Within two steps of the format: written scaled by 2^(bits-1) - 1, read back by 2^(bits-1).
        let step: Float = format == .signed16LE ? 2 / 32_768 : format == .signed24Packed3LE ? 2 / 8_388_608 : 1e-7
        let worst = zip(captured, samples).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= step, "captured samples differ from the file's by up to \(worst)")
    }

    @Test func anUnknownCaptureDeviceNamesItself() {
        #expect {
            try PCMCaptureDevice(name: "hw:97,0", configuration: PCMConfiguration())
        } throws: { error in
            "\(error)".hasPrefix("no audio device 'hw:97,0'")
        }
    }
}
