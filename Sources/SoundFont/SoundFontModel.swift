/// One generator of a zone: its SF2 operator number (`kind`) and its raw 16-bit amount (signed,
/// unsigned or a low/high range, depending on the operator).
public struct SoundFontGenerator: Hashable, Sendable {
    public var kind: UInt16
    public var amount: UInt16

    public init(kind: UInt16, amount: UInt16) {
        self.kind = kind
        self.amount = amount
    }

    /// The amount as a signed value (most generators).
    public var signedAmount: Int16 { Int16(bitPattern: amount) }
    /// The amount as a low…high range (`keyRange`, `velRange`).
    public var range: ClosedRange<UInt8> {
        let low = UInt8(amount & 0xFF), high = UInt8(amount >> 8)
        return min(low, high)...max(low, high)
    }

    /// Operators with a meaning for the reader.
    public static let instrument: UInt16 = 41
    public static let keyRange: UInt16 = 43
    public static let velocityRange: UInt16 = 44
    public static let sampleID: UInt16 = 53
}

/// One modulator of a zone, as stored (SF2.01 section 8.2).
public struct SoundFontModulator: Hashable, Sendable {
    public var source: UInt16
    public var destination: UInt16
    public var amount: Int16
    public var amountSource: UInt16
    public var transform: UInt16
}

/// A zone: its generators and modulators, and what it points to (`instrument` in a preset
/// zone, `sample` in an instrument zone). A zone pointing nowhere is the global zone.
public struct SoundFontZone: Hashable, Sendable {
    public var generators: [SoundFontGenerator]
    public var modulators: [SoundFontModulator]
    /// The instrument (preset zones) or sample (instrument zones) index, checked in range.
    public var target: Int?

    public var isGlobal: Bool { target == nil }
}

public struct SoundFontPreset: Hashable, Sendable {
    public var name: String
    /// 0…127.
    public var program: Int
    /// 0…16383; 128 is percussion.
    public var bank: Int
    public var zones: [SoundFontZone]
}

public struct SoundFontInstrument: Hashable, Sendable {
    public var name: String
    public var zones: [SoundFontZone]
}

/// A sample header: where its frames are in the font's sample data, and how it loops.
public struct SoundFontSample: Hashable, Sendable {
    public var name: String
    /// Frame indices into the sample data; `start <= end <= frameCount` is checked.
    public var start: Int
    public var end: Int
    /// The loop, clamped into `start...end` (fonts with loop points outside their sample
    /// exist; players clamp them too).
    public var loopStart: Int
    public var loopEnd: Int
    public var sampleRate: Int
    public var originalPitch: Int
    public var pitchCorrection: Int
    public var link: Int
    /// 1 mono, 2 right, 4 left, 8 linked; 0x8000 set for ROM samples (not playable).
    public var type: UInt16

    public var isROM: Bool { type & 0x8000 != 0 }
}
