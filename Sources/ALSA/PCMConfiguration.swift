/// What midihub asks of a playback device. The device may answer with nearby
/// values; ``PCMSettings`` reports what it accepted.
public struct PCMConfiguration: Sendable, Equatable {
    /// Sample rates the engine renders at.
    public static let supportedSampleRates = [44_100, 48_000, 96_000]
    /// Period sizes (= engine block sizes) the engine supports, in frames.
    public static let periodFramesRange = 16...4096
    /// Channel counts the engine renders.
    public static let channelsRange = 1...8

    /// Frames per second.
    public var sampleRate: Int
    /// Interleaved channels per frame.
    public var channels: Int
    /// Frames per period; the engine renders one period per block.
    public var periodFrames: Int
    /// Frames in the device ring; `nil` asks for ``defaultPeriodsPerBuffer`` periods.
    public var bufferFrames: Int?
    /// Sample formats to try, best first; the first one the device offers wins.
    public var formats: [PCMSampleFormat]

    /// Periods in the buffer when ``bufferFrames`` is not given.
    public static let defaultPeriodsPerBuffer = 4

    /// - Thread: any
    public init(
        sampleRate: Int = 48_000, channels: Int = 2, periodFrames: Int = 256,
        bufferFrames: Int? = nil, formats: [PCMSampleFormat] = PCMSampleFormat.preferenceOrder
    ) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
        self.formats = formats
    }

    /// The buffer size to ask the device for.
    public var requestedBufferFrames: Int {
        bufferFrames ?? periodFrames * Self.defaultPeriodsPerBuffer
    }

    /// Checks every option against what the engine supports.
    /// - Throws: ``PCMError/invalidOption(_:)`` naming the option, its value and the accepted values.
    /// - Thread: any
    public func validate() throws(PCMError) {
        guard Self.supportedSampleRates.contains(sampleRate) else {
            throw .invalidOption(
                "sample rate \(sampleRate) Hz is not supported; use one of "
                    + Self.supportedSampleRates.map(String.init).joined(separator: ", "))
        }
        guard Self.channelsRange.contains(channels) else {
            throw .invalidOption(
                "\(channels) channels is not supported; use \(Self.channelsRange.lowerBound)…\(Self.channelsRange.upperBound)")
        }
        guard Self.periodFramesRange.contains(periodFrames) else {
            throw .invalidOption(
                "period size \(periodFrames) frames is out of range; use "
                    + "\(Self.periodFramesRange.lowerBound)…\(Self.periodFramesRange.upperBound)")
        }
        guard requestedBufferFrames >= 2 * periodFrames else {
            throw .invalidOption(
                "buffer size \(requestedBufferFrames) frames is too small; use at least two periods "
                    + "(\(2 * periodFrames) frames)")
        }
        guard !formats.isEmpty else {
            throw .invalidOption("no sample format to try; give at least one of "
                + PCMSampleFormat.preferenceOrder.map(\.alsaName).joined(separator: ", "))
        }
    }
}

/// What a playback device accepted: the values the engine must render with.
public struct PCMSettings: Sendable, Equatable, CustomStringConvertible {
    /// The name the device was opened with.
    public let deviceName: String
    /// The sample format chosen from ``PCMConfiguration/formats``.
    public let format: PCMSampleFormat
    /// Frames per second (the device's nearest to the requested rate).
    public let sampleRate: Int
    /// Interleaved channels per frame.
    public let channels: Int
    /// Frames per period (the device's nearest to the requested size).
    public let periodFrames: Int
    /// Frames in the device ring (the device's nearest to the requested size).
    public let bufferFrames: Int

    /// - Thread: any
    public init(
        deviceName: String, format: PCMSampleFormat, sampleRate: Int, channels: Int,
        periodFrames: Int, bufferFrames: Int
    ) {
        self.deviceName = deviceName
        self.format = format
        self.sampleRate = sampleRate
        self.channels = channels
        self.periodFrames = periodFrames
        self.bufferFrames = bufferFrames
    }

    /// Bytes one interleaved frame takes in the device format.
    public var bytesPerFrame: Int { format.bytesPerSample * channels }

    /// Output latency of a full buffer, in milliseconds.
    public var bufferMilliseconds: Double { Double(bufferFrames) * 1000 / Double(sampleRate) }

    public var description: String {
        let milliseconds = (bufferMilliseconds * 10).rounded() / 10
        return "\(deviceName): \(format), \(sampleRate) Hz, \(channels) ch, period \(periodFrames) frames, "
            + "buffer \(bufferFrames) frames (\(milliseconds) ms)"
    }
}
