import ALSA
import Glibc
import Testing

@Suite("PCM device open, errors and close")
struct PCMDeviceLifecycleTests {
    @Test("an unknown device is one line naming it, --device, aplay -L and midihub render")
    func unknownDevice() {
        #expect {
            _ = try PCMDevice(name: "midihub-no-such-device")
        } throws: { error in
            guard case PCMError.unknownDevice(name: "midihub-no-such-device", cause: _) = error else { return false }
            let message = "\(error)"
            return message.contains("'midihub-no-such-device'") && message.contains("--device")
                && message.contains("aplay -L") && message.contains("midihub render")
                && !message.contains("\n")
        }
    }

    @Test("errors that end playback name the device, the call, its text and the way on")
    func playbackEndingMessages() {
        let gone = PCMError.deviceGone(name: "hw:1,0", cause: ALSAError(function: "snd_pcm_writei", code: -ENODEV))
        #expect("\(gone)" == "audio device 'hw:1,0' is gone (snd_pcm_writei: No such device); playback stopped, "
            + "reconnect it or choose another with --device")
        let failed = PCMError.playbackFailed(name: "hw:1,0", cause: ALSAError(function: "snd_pcm_writei", code: -EIO))
        #expect("\(failed)".hasPrefix("playback to audio device 'hw:1,0' failed (snd_pcm_writei: Input/output error)"))
    }

    @Test("options are checked before the device is opened")
    func invalidOptionFirst() {
        #expect {
            _ = try PCMDevice(name: "midihub-no-such-device", configuration: PCMConfiguration(periodFrames: 3))
        } throws: { error in
            guard case PCMError.invalidOption = error else { return false }
            return true
        }
    }

    @Test("broken ALSA configuration text names the parser call")
    func brokenConfiguration() {
        #expect {
            _ = try PCMDevice(name: "x", alsaConfiguration: "pcm.x { type null ")
        } throws: { error in
            "\(error)".hasPrefix("snd_config_load failed: ")
        }
    }

    @Test("the null device takes thousands of blocks without an underrun")
    func nullDeviceStreams() throws {
        let device = try PCMDevice(name: "null", configuration: PCMConfiguration(periodFrames: 64))
        let block = [Float](repeating: 0.25, count: 64 * 2)
        try block.withUnsafeBufferPointer { samples in
            for _ in 0..<5_000 { try device.write(frames: samples) }
        }
        try device.drain()
        #expect(device.statistics.underruns == 0 && device.statistics.resumes == 0)
        #expect(device.isOpen)
    }

    @Test("after close, writing is an error and closing again does nothing")
    func closeIsFinal() throws {
        let device = try PCMDevice(name: "null")
        device.close()
        device.close()
        #expect(!device.isOpen)
        let block = [Float](repeating: 0, count: 2 * 16)
        #expect(throws: PCMError.self) {
            try block.withUnsafeBufferPointer { try device.write(frames: $0) }
        }
    }
}
