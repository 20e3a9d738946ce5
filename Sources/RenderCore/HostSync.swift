/// What a node knows about the host's timeline for the block it renders.
///
/// - Thread: render (a plain value handed to `process`).
public struct HostSync: Sendable, Equatable, BitwiseCopyable {
    public enum Transport: UInt8, Sendable, BitwiseCopyable {
        case stopped, playing, recording
    }

    /// Frames rendered before this block (the master clock).
    public var samplePosition: Int64
    public var sampleRate: Double
    /// Quarter notes per minute at the start of the block.
    public var tempo: Double
    /// Position in quarter notes from the start of the sequence.
    public var beat: Double
    /// 1-based bar number of the block start.
    public var bar: Int
    /// Quarter-note position where the current bar started.
    public var barStartBeat: Double
    public var timeSignatureNumerator: Int
    public var timeSignatureDenominator: Int
    public var transport: Transport

    public init(samplePosition: Int64 = 0, sampleRate: Double = 48_000, tempo: Double = 120, beat: Double = 0,
                bar: Int = 1, barStartBeat: Double = 0, timeSignatureNumerator: Int = 4,
                timeSignatureDenominator: Int = 4, transport: Transport = .stopped) {
        self.samplePosition = samplePosition
        self.sampleRate = sampleRate
        self.tempo = tempo
        self.beat = beat
        self.bar = bar
        self.barStartBeat = barStartBeat
        self.timeSignatureNumerator = timeSignatureNumerator
        self.timeSignatureDenominator = timeSignatureDenominator
        self.transport = transport
    }

    /// Seconds per quarter note at this block's tempo.
    public var secondsPerBeat: Double { 60 / max(tempo, 1) }

    /// The same timeline moved forward by `frames` at a constant tempo.
    /// - Thread: any.
    public func advanced(by frames: Int) -> HostSync {
        var next = self
        next.samplePosition += Int64(frames)
        if transport != .stopped {
            next.beat += Double(frames) / sampleRate / secondsPerBeat
            let beatsPerBar = Double(timeSignatureNumerator) * 4 / Double(max(timeSignatureDenominator, 1))
            while next.beat - next.barStartBeat >= beatsPerBar {
                next.barStartBeat += beatsPerBar
                next.bar += 1
            }
        }
        return next
    }
}
