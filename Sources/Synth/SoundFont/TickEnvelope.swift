/// A SoundFont envelope (delay, attack, hold, decay, sustain, release) stepped once per
/// control tick of `SoundFontVoice.tickFrames` frames, with FluidSynth's arithmetic so the
/// two sound alike: each section is `value = value × coefficient + increment`, clamped to
/// the section's bounds; reaching a bound or the section's tick count moves on.
///
/// The value runs 0…1. The volume envelope's value is linear in amplitude during the
/// attack and linear in decibels (over 96 dB) afterwards; see `SoundFontVoice`.
///
/// - Thread: render (a plain value inside a voice).
struct TickEnvelope {
    enum Section: Int {
        case delay, attack, hold, decay, sustain, release, finished
    }

    private struct Segment {
        var ticks: Int
        var coefficient: Float
        var increment: Float
        var minimum: Float
        var maximum: Float
    }

    private(set) var value: Float = 0
    private(set) var section = Section.finished
    private var count = 0
    private var segments: (Segment, Segment, Segment, Segment, Segment, Segment, Segment)

    init() {
        let idle = Segment(ticks: .max, coefficient: 0, increment: 0, minimum: -1, maximum: 1)
        segments = (idle, idle, idle, idle, idle, idle, idle)
    }

    /// Sets up the envelope whose eight generators start at `first` (SF2 orders both alike:
    /// delay, attack, hold, decay, sustain in 0.1 % below full, release, key to hold, key to
    /// decay), `keySteps` keys below 60 lengthening hold and decay.
    init(generators g: UnsafeMutablePointer<Float>, from first: Int, keySteps: Float, minimumRelease: Float,
         tickSeconds: Float, releaseMaximum: Float) {
        self.init(delay: g[first], attack: g[first + 1], hold: g[first + 2] + g[first + 6] * keySteps,
                  decay: g[first + 3] + g[first + 7] * keySteps, sustain: 1 - 0.001 * g[first + 4], release: g[first + 5],
                  minimumRelease: minimumRelease, tickSeconds: tickSeconds, releaseMaximum: releaseMaximum)
    }

    /// Sets up the sections from timecents (delay, attack, hold, decay, release) and a
    /// sustain level in 0…1, for ticks of `tickSeconds`; starts in the delay section.
    /// `releaseMaximum` is 1 for the volume envelope and 2 for the modulation envelope.
    init(delay: Float, attack: Float, hold: Float, decay: Float, sustain: Float, release: Float,
         minimumRelease: Float, tickSeconds: Float, releaseMaximum: Float) {
        self.init()
        let delayTicks = Self.ticks(Self.seconds(clamping: delay, -12_000...5_000), tickSeconds, rounded: false)
        let attackTicks = 1 + Self.ticks(Self.seconds(clamping: attack, -12_000...8_000), tickSeconds, rounded: false)
        let holdTicks = Self.ticks(Self.seconds(clamping: hold, -12_000...5_000), tickSeconds, rounded: true)
        let decayTicks = Self.ticks(Self.seconds(clamping: decay, -12_000...8_000), tickSeconds, rounded: true)
        let releaseTicks = 1 + Self.ticks(Self.seconds(clamping: release, minimumRelease...8_000), tickSeconds, rounded: false)
        segments = (
            Segment(ticks: delayTicks, coefficient: 0, increment: 0, minimum: -1, maximum: 1),
            Segment(ticks: attackTicks, coefficient: 1, increment: 1 / Float(attackTicks), minimum: -1, maximum: 1),
            Segment(ticks: holdTicks, coefficient: 1, increment: 0, minimum: -1, maximum: 2),
            Segment(ticks: decayTicks, coefficient: 1, increment: decayTicks > 0 ? -1 / Float(decayTicks) : 0,
                    minimum: min(max(sustain, 0), 1), maximum: 2),
            Segment(ticks: .max, coefficient: 1, increment: 0, minimum: -1, maximum: 2),
            Segment(ticks: releaseTicks, coefficient: 1, increment: -1 / Float(releaseTicks), minimum: 0, maximum: releaseMaximum),
            Segment(ticks: .max, coefficient: 0, increment: 0, minimum: -1, maximum: 1)
        )
        section = .delay
        value = 0
        count = 0
    }

    /// Advances one tick.
    @inline(__always)
    mutating func step() {
        var segment = self.segment(section)
        while count >= segment.ticks {
            if section == .decay { value = segment.minimum * segment.coefficient }
            section = Section(rawValue: section.rawValue + 1) ?? .finished
            count = 0
            segment = self.segment(section)
        }
        let next = segment.coefficient * value + segment.increment
        if next < segment.minimum {
            value = segment.minimum
            advance()
        } else if next > segment.maximum {
            value = segment.maximum
            advance()
        } else {
            value = next
            count += 1
        }
    }

    /// Note-off: to the release section from wherever the envelope is, starting at `value`.
    mutating func release(from value: Float) {
        guard section.rawValue < Section.release.rawValue else { return }
        self.value = value
        section = .release
        count = 0
    }

    /// Ends at once (a stolen voice's fade is done by the voice, not here).
    mutating func finish() {
        section = .finished
        value = 0
    }

    private mutating func advance() {
        section = Section(rawValue: section.rawValue + 1) ?? .finished
        count = 0
    }

    private func segment(_ section: Section) -> Segment {
        switch section {
        case .delay: segments.0
        case .attack: segments.1
        case .hold: segments.2
        case .decay: segments.3
        case .sustain: segments.4
        case .release: segments.5
        case .finished: segments.6
        }
    }

    /// Seconds of a timecents value, limited to `range` (SF2.01 section 8.1.3).
    static func seconds(clamping timecents: Float, _ range: ClosedRange<Float>) -> Float {
        timecents <= -32_768 ? 0 : exp2Fast(min(max(timecents, range.lowerBound), range.upperBound) / 1200)
    }

    private static func ticks(_ seconds: Float, _ tickSeconds: Float, rounded: Bool) -> Int {
        Int(seconds / tickSeconds + (rounded ? 0.5 : 0))
    }
}
