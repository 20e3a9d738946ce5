import ALSA
import Glibc
import RenderCore
import Synchronization

/// One stereo frame of captured audio.
/// - Thread: any (a plain value).
public struct CapturedFrame: BitwiseCopyable, Sendable {
    public var left: Float
    public var right: Float
}

/// Reads an ALSA capture device on a thread of its own into a ring that an
/// `AudioInputNode` plays from, so that the render thread never waits on the input's
/// device. While the device cannot be opened or fails (unplugged, busy, a rate the hub
/// does not run at), it reports one line and tries again every second; the input is
/// silent meanwhile.
///
/// - Thread: control: `init` and `stop` on control; the reading loop on its own thread.
final class AudioCapture: @unchecked Sendable {
    /// The captured frames, oldest first; the node pops them on the render thread.
    let ring: SPSCRing<CapturedFrame>
    private var thread: DeviceThread?

    /// Starts capturing from `device` at `format`'s rate in periods of its block size.
    /// - Parameter report: called (on the capture thread) with a line to log when the
    ///   device fails or comes back.
    init(device: String, format: RenderFormat, alsaConfiguration: String? = nil,
         report: @escaping @Sendable (String) -> Void) {
        let period = min(max(format.maxFrames, PCMConfiguration.periodFramesRange.lowerBound),
                         PCMConfiguration.periodFramesRange.upperBound)
        ring = SPSCRing(minimumCapacity: 8 * period)
        let configuration = PCMConfiguration(sampleRate: Int(format.sampleRate), channels: 2, periodFrames: period)
        let ring = ring
        thread = DeviceThread(role: "audio input '\(device)'", recovered: "capturing",
                              describe: { "audio input: " + Self.describe($0, device: device) }, report: report) {
            running, opened throws(PCMError) in
            let capture = try PCMCaptureDevice(name: device, configuration: configuration, alsaConfiguration: alsaConfiguration)
            guard capture.settings.sampleRate == configuration.sampleRate else {
                throw .invalidOption("audio input '\(device)' runs at \(capture.settings.sampleRate) Hz, the hub at "
                                     + "\(configuration.sampleRate) Hz; use a 'plughw:' device, which converts")
            }
            opened()
            try Self.read(capture, into: ring, running: running)
        }
    }

    /// Stops the reading loop and waits for it (at most a retry's or a read's timeout).
    func stop() {
        thread?.stop()
        thread = nil
    }

    deinit { stop() }

    /// What went wrong, with the fix for an input: the output's wording (`--device`,
    /// `aplay -L`) does not fit a capture device named in a patch.
    private static func describe(_ error: PCMError, device: String) -> String {
        switch error {
        case .unknownDevice(_, let cause):
            "no capture device '\(device)' (\(cause.function): \(cause.message)); name one `arecord -L` lists in the node's `input:`"
        case .deviceBusy(_, let cause):
            "capture device '\(device)' is busy (\(cause.function): \(cause.message)); close the program recording from it"
        default:
            "\(error)"
        }
    }

    /// Reads periods from `capture` into the ring until `running` is cleared.
    private static func read(_ capture: PCMCaptureDevice, into ring: SPSCRing<CapturedFrame>,
                             running: DeviceThread.RunningFlag) throws(PCMError) {
        let channels = capture.settings.channels
        // Room for the period the device agreed to, which may be longer than the one asked for.
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: capture.settings.periodFrames * channels)
        defer { samples.deallocate() }
        while running.isSet {
            let frames = try capture.read(into: samples, timeoutMilliseconds: 200)
            for frame in 0..<frames {
                let left = samples[frame * channels]
                ring.push(CapturedFrame(left: left, right: channels > 1 ? samples[frame * channels + 1] : left))
            }
        }
    }
}
