import ALSA
import Testing

@Suite("PCM configuration")
struct PCMConfigurationTests {
    /// The message of the `invalidOption` error `configuration` fails with, or nil.
    private func rejection(_ configuration: PCMConfiguration) -> String? {
        do {
            try configuration.validate()
            return nil
        } catch {
            guard case .invalidOption(let message) = error else { return "unexpected \(error)" }
            return message
        }
    }

    @Test("defaults: 48 kHz stereo, 256-frame periods, four periods of buffer, float first")
    func defaults() {
        let configuration = PCMConfiguration()
        #expect(rejection(configuration) == nil)
        #expect(configuration.sampleRate == 48_000 && configuration.channels == 2)
        #expect(configuration.requestedBufferFrames == 4 * configuration.periodFrames)
        #expect(configuration.formats.first == .float32LE)
    }

    @Test("the engine's rates are accepted", arguments: [44_100, 48_000, 96_000])
    func acceptedRates(rate: Int) {
        #expect(rejection(PCMConfiguration(sampleRate: rate)) == nil)
    }

    @Test("other rates are refused with the list of accepted ones")
    func refusedRate() {
        let message = rejection(PCMConfiguration(sampleRate: 22_050))
        #expect(message?.contains("22050") == true)
        #expect(message?.contains("44100, 48000, 96000") == true)
    }

    @Test("period sizes outside 16…4096 are refused", arguments: [0, 15, 4097])
    func refusedPeriod(period: Int) {
        let message = rejection(PCMConfiguration(periodFrames: period))
        #expect(message?.contains("period size \(period)") == true)
        #expect(message?.contains("16…4096") == true)
    }

    @Test("period sizes at the bounds are accepted", arguments: [16, 4096])
    func acceptedPeriod(period: Int) {
        #expect(rejection(PCMConfiguration(periodFrames: period)) == nil)
    }

    @Test("a buffer smaller than two periods is refused")
    func refusedBuffer() {
        #expect(rejection(PCMConfiguration(periodFrames: 256, bufferFrames: 511))?.contains("512") == true)
        #expect(rejection(PCMConfiguration(periodFrames: 256, bufferFrames: 512)) == nil)
    }

    @Test("channel counts and empty format lists are refused")
    func refusedChannelsAndFormats() {
        #expect(rejection(PCMConfiguration(channels: 0))?.contains("0 channels") == true)
        #expect(rejection(PCMConfiguration(formats: []))?.contains("FLOAT_LE") == true)
    }

    @Test("settings describe themselves on one line with the latency")
    func settingsDescription() {
        let settings = PCMSettings(
            deviceName: "hw:1,0", format: .signed16LE, sampleRate: 48_000, channels: 2,
            periodFrames: 256, bufferFrames: 1024)
        #expect(settings.bytesPerFrame == 4)
        #expect("\(settings)" == "hw:1,0: S16_LE, 48000 Hz, 2 ch, period 256 frames, buffer 1024 frames (21.3 ms)")
    }
}
