/// A sample format midihub can write to an ALSA playback device.
///
/// The engine renders interleaved `Float` samples; ``PCMDevice`` picks the first of
/// ``preferenceOrder`` that the device offers and converts each block into it
/// (see `PCMSampleFormat+Encoding.swift`).
public enum PCMSampleFormat: String, CaseIterable, Sendable, CustomStringConvertible {
    /// 32-bit IEEE float, little-endian (`FLOAT_LE`).
    case float32LE = "FLOAT_LE"
    /// 32-bit signed integer, little-endian (`S32_LE`).
    case signed32LE = "S32_LE"
    /// 24-bit signed integer packed in 3 bytes, little-endian (`S24_3LE`).
    case signed24Packed3LE = "S24_3LE"
    /// 16-bit signed integer, little-endian (`S16_LE`).
    case signed16LE = "S16_LE"

    /// The formats tried, best first: no conversion loss first, then more bits.
    public static let preferenceOrder: [PCMSampleFormat] = [
        .float32LE, .signed32LE, .signed24Packed3LE, .signed16LE,
    ]

    /// The ALSA name of the format, as `aplay --dump-hw-params` shows it.
    public var alsaName: String { rawValue }

    public var description: String { rawValue }

    /// Bytes one sample of one channel takes in the device buffer.
    public var bytesPerSample: Int {
        switch self {
        case .float32LE, .signed32LE: 4
        case .signed24Packed3LE: 3
        case .signed16LE: 2
        }
    }

    /// Parses a format as a user types it: the ALSA name (`S16_LE`, `FLOAT_LE`, …)
    /// or a short name (`s16`, `s24`, `s32`, `float`), case-insensitive.
    /// - Thread: any
    public init?(argument: String) {
        let key = argument.lowercased()
        if let format = PCMSampleFormat.allCases.first(where: { $0.rawValue.lowercased() == key }) {
            self = format
            return
        }
        switch key {
        case "float", "float32", "f32": self = .float32LE
        case "s32": self = .signed32LE
        case "s24", "s24_3": self = .signed24Packed3LE
        case "s16": self = .signed16LE
        default: return nil
        }
    }

    /// Parses a comma-separated preference list such as `s16,float`.
    /// - Throws: ``PCMError/unknownSampleFormat(_:)`` naming the first bad entry.
    /// - Thread: any
    public static func parseList(_ argument: String) throws(PCMError) -> [PCMSampleFormat] {
        var formats: [PCMSampleFormat] = []
        for entry in argument.split(separator: ",", omittingEmptySubsequences: true) {
            let name = entry.trimmingWhitespace()
            guard let format = PCMSampleFormat(argument: name) else {
                throw .unknownSampleFormat(name)
            }
            if !formats.contains(format) { formats.append(format) }
        }
        guard !formats.isEmpty else { throw .unknownSampleFormat(argument) }
        return formats
    }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
