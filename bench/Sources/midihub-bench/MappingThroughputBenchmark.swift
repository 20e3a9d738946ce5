import Foundation
import Hub
import MIDICore

extension BenchmarkRow {
    /// The mapping engine's per-event work on one core, no kernel: a controller's stream —
    /// knobs, a 14-bit fader, an NRPN, an endless encoder, pads, and as many controllers no
    /// mapping reads — through eight mappings, one knob fanned out to three targets with
    /// their own ranges and curves, one fader with pickup. Input events per second, best of
    /// 3, against alsa-lib encoding the same events into an output buffer (what passing them
    /// on costs at the least).
    @Sendable static func mappingThroughput(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let events = MappingLoad.events(count: 2_000_000)
        var engine = MappingEngine(MappingLoad.mappings)
        var values = MappingLoad.Values()
        var changes: [MappingEngine.Change] = []
        changes.reserveCapacity(16)
        var moved = 0
        let seconds = Timing.best(of: 3) {
            moved = 0
            for (offset, message) in events.enumerated() {
                changes.removeAll(keepingCapacity: true)
                _ = engine.handle(message, device: 1, sources: ["knobs"], time: HostTime(nanoseconds: Int64(offset) * 100_000),
                                  values: values, into: &changes)
                for change in changes { values.set(change) }
                moved += changes.count
            }
        }
        guard moved > events.count / 2 else {
            throw BenchmarkError(description: "the mappings moved \(moved) targets for \(events.count) events (fix: see MappingThroughputBenchmark.swift)")
        }
        let buffer = EventBuffer()
        let destination: EncodingSink.Destination = (130, 0)
        let encodeSeconds = Timing.best(of: 3) {
            for message in events { buffer.append(message, to: destination) }
        }
        let microseconds = seconds / Double(events.count) * 1e6
        return BenchmarkResult(
            title: "mapping throughput (\(events.count) controller events, 8 mappings, \(moved) target moves; "
                + String(format: "%.2f µs per event)", microseconds),
            unit: "events/s", midihub: Double(events.count) / seconds,
            anchorName: "alsa-lib encoding alone", anchor: Double(events.count) / encodeSeconds)
    }
}

/// The mappings and the controller stream of the mapping-throughput row.
enum MappingLoad {
    /// Where the moved values live, as the hub keeps them (by node and parameter name).
    struct Values: ParameterReading {
        private struct Key: Hashable {
            var node: NodeID
            var parameter: String
        }

        private var values: [Key: Float] = [:]

        func value(of parameter: String, of node: NodeID) -> Float? { values[Key(node: node, parameter: parameter)] }

        mutating func set(_ change: MappingEngine.Change) { values[Key(node: change.node, parameter: change.parameter)] = change.value }
    }

    static func target(_ node: String, _ parameter: String, _ low: Float, _ high: Float,
                       curve: MappingCurve = .linear) -> MappingTarget {
        MappingTarget(node: node, parameter: parameter, low: low, high: high, curve: curve)
    }

    static let mappings: [Mapping] = [
        Mapping(from: "knobs", source: .controller(74), targets: [
            target("synth", "brightness", -36, 36), target("verb", "wet", 0, 1, curve: .exponential),
            target("strip", "send a", -60, 0, curve: .s),
        ]),
        Mapping(source: .controller(71), targets: [target("synth", "resonance", -1, 1)]),
        Mapping(source: .controller(7), pickup: .pickup, targets: [target("strip", "gain", -60, 6)]),
        Mapping(source: .controllerPair(16), targets: [target("up", "semitones", -48, 48)]),
        Mapping(source: .nrpn(1000, fine: true), targets: [target("transport", "tempo", 60, 180)]),
        Mapping(source: .controller(20), mode: .relative(.twosComplement), acceleration: 1,
                targets: [target("synth", "detune", 0, 100)]),
        Mapping(channel: 9, source: .note(36), mode: .button(.toggle), targets: [target("synth", "vibrato", 0, 100)]),
        Mapping(source: .pitchBend, targets: [target("synth", "master gain", -60, 12)]),
    ]

    /// Knob sweeps, a 14-bit fader, NRPN data entry, encoder ticks, pad hits, bend, and
    /// unmapped controllers (modulation, expression) in between.
    static func events(count: Int) -> [MIDIMessage] {
        (0..<count).map { index in
            let step = UInt8(index / 16 % 128)
            switch index % 16 {
            case 0, 8: return .controlChange(channel: 0, controller: 74, value: step)
            case 1: return .controlChange(channel: 0, controller: 71, value: 127 - step)
            case 2: return .controlChange(channel: 0, controller: 7, value: step)
            case 3: return .controlChange(channel: 0, controller: 16, value: step)
            case 4: return .controlChange(channel: 0, controller: 48, value: 127 - step)
            case 5: return .controlChange(channel: 0, controller: 99, value: 7)
            case 6: return .controlChange(channel: 0, controller: 98, value: 104)
            case 7: return .controlChange(channel: 0, controller: 6, value: step)
            case 9: return .controlChange(channel: 0, controller: 20, value: index % 32 < 16 ? 1 : 127)
            case 10: return .noteOn(channel: 9, note: 36, velocity: 100)
            case 11: return .noteOff(channel: 9, note: 36, velocity: 0)
            case 12: return .pitchBend(channel: 0, value: UInt16(step) << 7)
            default: return .controlChange(channel: UInt8(index % 3), controller: index % 2 == 0 ? 1 : 11, value: step)
            }
        }
    }
}
