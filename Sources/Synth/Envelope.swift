/// A per-sample ADSR envelope: linear attack to 1, exponential decay to the sustain level,
/// exponential release (each exponential stage covers 60 dB in its time), and a linear
/// fade used when a voice is stolen or silenced.
///
/// Every stage is `level = level × mul + add`, so a renderer's inner loop is one multiply-add.
/// - Thread: render (a plain value inside a voice).
struct Envelope {
    enum Stage: UInt8 { case attack, decay, release, fade, done }

    private(set) var level: Float = 0
    private(set) var stage: Stage = .done
    private var mul: Float = 1
    private var add: Float = 0
    /// Frames left in a linear stage; `Int.max` for open-ended stages.
    private var remaining = Int.max

    private var attackFrames = 1
    private var decayCoefficient: Float = 0
    private(set) var sustain: Float = 1
    private var releaseCoefficient: Float = 0

    /// Level below which a releasing (or sustain-less) envelope counts as finished (−80 dB).
    static let silence: Float = 1e-4

    init() {}

    init(attack: Float, decay: Float, sustain: Float, release: Float, sampleRate: Float) {
        attackFrames = max(1, Int((attack * sampleRate).rounded()))
        decayCoefficient = sixtyDecibelCoefficient(frames: decay * sampleRate)
        self.sustain = sustain
        releaseCoefficient = sixtyDecibelCoefficient(frames: release * sampleRate)
    }

    /// Starts the attack from the current level (0 for a fresh voice).
    mutating func start() {
        stage = .attack
        mul = 1
        add = (1 - level) / Float(attackFrames)
        remaining = attackFrames
    }

    /// Sets the release time (before `release`: a note's release knob is read as it ends).
    mutating func setRelease(_ seconds: Float, sampleRate: Float) {
        releaseCoefficient = sixtyDecibelCoefficient(frames: seconds * sampleRate)
    }

    mutating func release() {
        guard stage == .attack || stage == .decay else { return }
        stage = .release
        mul = releaseCoefficient
        add = 0
        remaining = .max
    }

    /// Fades linearly to silence in `frames` frames, then finishes.
    mutating func fade(frames: Int) {
        guard stage != .done else { return }
        stage = .fade
        mul = 1
        add = -level / Float(max(frames, 1))
        remaining = max(frames, 1)
    }

    /// True once the envelope is silent for good.
    var isFinished: Bool {
        stage == .done || ((stage == .release || (stage == .decay && sustain < Envelope.silence)) && level < Envelope.silence)
    }

    /// The current stage as a recurrence: each frame `level = level × mul + add`, for
    /// `remaining` more frames (`Int.max` for open-ended stages). Renderers run it
    /// themselves (several voices at once) and report back with `advance`.
    var segment: (level: Float, mul: Float, add: Float, remaining: Int) { (level, mul, add, remaining) }

    /// Records that `frames` frames (≤ `segment.remaining`) of the current segment were
    /// rendered, ending at `level`; moves to the next stage when the segment is used up.
    @inline(__always)
    mutating func advance(frames: Int, level: Float) {
        self.level = level
        if remaining != .max {
            remaining -= frames
            if remaining == 0 { advanceStage() }
        }
    }

    /// Moves `count` frames on without writing the levels (control-rate use).
    @inline(__always)
    mutating func skip(_ count: Int) {
        var done = 0
        while done < count {
            let n = min(count - done, remaining)
            if mul == 1 {
                level += add * Float(n)
            } else {
                // n steps of l·mul + add approach add / (1 − mul) geometrically.
                let target = add / (1 - mul)
                level = target + (level - target) * power(mul, n)
            }
            done += n
            remaining -= n
            if remaining == 0 { advanceStage() }
        }
    }

    private mutating func advanceStage() {
        switch stage {
        case .attack:
            level = 1
            stage = .decay
            mul = decayCoefficient
            add = sustain * (1 - decayCoefficient)
        case .fade, .decay, .release, .done:
            level = 0
            stage = .done
            mul = 1
            add = 0
        }
        remaining = .max
    }
}
