import MIDICore
import Foundation
import RenderCore

/// Plays the held notes one after another on the tempo grid. Held notes are consumed; other
/// messages pass with their timestamps. Steps fall on multiples of `1 / rate` beats of the
/// ``TempoClock`` passed to ``generate(from:to:clock:parameters:into:)``, so the arpeggio follows tempo changes.
///
/// Parameters: `rate` (steps per beat), `pattern` (0 up, 1 down, 2 up-down, 3 as played),
/// `octaves`, `gate` (note length as a fraction of a step).
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct Arpeggiator: MIDIProcessor {
    public enum Pattern: Int, CaseIterable, Sendable { case up, down, upDown, asPlayed }
    public enum Parameter: Int { case rate, pattern, octaves, gate }

    public let parameterInfos = [
        ParameterInfo(id: 0, name: "rate", range: 1...8, defaultValue: 2, unit: .count),
        ParameterInfo(id: 1, name: "pattern", range: 0...3, defaultValue: 0, unit: .generic,
                      choices: ["up", "down", "up-down", "as played"].enumerated().map { ParameterChoice($1, Float($0)) }),
        ParameterInfo(id: 2, name: "octaves", range: 1...4, defaultValue: 1, unit: .count),
        ParameterInfo(id: 3, name: "gate", range: 0.05...1, defaultValue: 0.5, unit: .generic),
    ]

    /// Held notes in the order they were pressed.
    private var held: [UInt8] = []
    private var velocities = [UInt8](repeating: 0, count: 128)
    private var channel: UInt8 = 0
    /// When the current run's first key went down; steps start on the grid at or after it.
    private var runStart: HostTime?
    private var nextBeat: Double?
    private var stepIndex = 0
    private var sequence: [UInt8] = []
    /// Note-offs scheduled past the end of a window, in time order.
    private var pendingOffs: [TimedMIDI] = []

    /// An arpeggiator with the default parameters, holding nothing.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init() {
        held.reserveCapacity(128)
        sequence.reserveCapacity(128 * 4 * 2)
        pendingOffs.reserveCapacity(16)
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        switch event.message {
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            if held.isEmpty { runStart = event.time }
            if !held.contains(note) { held.append(note) }
            velocities[Int(note & 0x7F)] = velocity
            self.channel = channel
        case .noteOn(_, let note, _), .noteOff(_, let note, _):
            held.removeAll { $0 == note }
            if held.isEmpty {
                runStart = nil
                nextBeat = nil
                stepIndex = 0
            }
        default:
            output.append(event)
        }
    }

    /// The next step falls on the new clock's grid, at or after `time` (a song started,
    /// sought or looped: its beats are not the old clock's).
    public mutating func regrid(at time: HostTime, clock: TempoClock, parameters: ParameterValues) {
        guard let runStart else { return }
        nextBeat = firstStep(atOrAfter: max(time, runStart), clock: clock, parameters: parameters)
    }

    /// Steps on its own grid.
    public var generates: Bool { true }

    public func nextGeneratedTime(clock: TempoClock, parameters: ParameterValues) -> HostTime? {
        let nextOff = pendingOffs.lazy.map(\.time).min()
        guard !held.isEmpty,
              let beat = nextBeat ?? runStart.map({ firstStep(atOrAfter: $0, clock: clock, parameters: parameters) }) else { return nextOff }
        return min(nextOff ?? .distantFuture, clock.time(atBeat: beat))
    }

    /// The beat of the first step on `clock`'s grid at or after `time`.
    private func firstStep(atOrAfter time: HostTime, clock: TempoClock, parameters: ParameterValues) -> Double {
        let rate = Double(parameters[Parameter.rate.rawValue].rounded())
        return (clock.beats(at: time) * rate - 1e-9).rounded(.up) / rate
    }

    public mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, parameters: ParameterValues,
                                  into output: inout [TimedMIDI]) {
        let rate = Double(parameters[Parameter.rate.rawValue].rounded())
        let gate = Double(parameters[Parameter.gate.rawValue])
        if let runStart, nextBeat == nil {
            nextBeat = firstStep(atOrAfter: runStart, clock: clock, parameters: parameters)
        }
        while let beat = nextBeat, !held.isEmpty {
            let time = clock.time(atBeat: beat)
            guard time < end else { break }
            flushOffs(endingBy: time, inclusive: true, into: &output)
            rebuildSequence(parameters)
            let note = sequence[stepIndex % sequence.count]
            let velocity = velocities[Int(note % 128)] == 0 ? 100 : velocities[Int(note % 128)]
            let stepTime = max(time, start)
            output.append(TimedMIDI(time: stepTime, message: .noteOn(channel: channel, note: note, velocity: velocity)))
            let offTime = clock.time(atBeat: beat + gate / rate)
            pendingOffs.append(TimedMIDI(time: max(offTime, stepTime),
                                         message: .noteOff(channel: channel, note: note, velocity: 0)))
            stepIndex += 1
            nextBeat = beat + 1 / rate
        }
        flushOffs(endingBy: end, inclusive: false, into: &output)
    }

    /// Emits the pending note-offs due before `time` (or at it, when `inclusive`).
    private mutating func flushOffs(endingBy time: HostTime, inclusive: Bool, into output: inout [TimedMIDI]) {
        var kept = 0
        for index in pendingOffs.indices {
            let due = pendingOffs[index].time
            if due < time || (inclusive && due == time) {
                output.append(pendingOffs[index])
            } else {
                pendingOffs[kept] = pendingOffs[index]
                kept += 1
            }
        }
        pendingOffs.removeLast(pendingOffs.count - kept)
    }

    /// Fills `sequence` with the notes of one pattern cycle, without reallocating.
    private mutating func rebuildSequence(_ parameters: ParameterValues) {
        let octaves = Int(parameters[Parameter.octaves.rawValue].rounded())
        let pattern = Pattern(rawValue: Int(parameters[Parameter.pattern.rawValue].rounded())) ?? .up
        sequence.removeAll(keepingCapacity: true)
        sequence.append(contentsOf: held)
        if pattern != .asPlayed { sequence.sort() }
        let oneOctave = sequence.count
        for octave in 1..<max(1, octaves) {
            for index in 0..<oneOctave where Int(sequence[index]) + 12 * octave <= 127 {
                sequence.append(sequence[index] + UInt8(12 * octave))
            }
        }
        switch pattern {
        case .up, .asPlayed: break
        case .down: sequence.reverse()
        case .upDown:
            for index in stride(from: sequence.count - 2, to: 0, by: -1) { sequence.append(sequence[index]) }
        }
    }
}
