import RenderCore

/// One key range of a ``KeyZones`` processor.
///
/// - Thread: any (a plain value).
public struct KeyZone: Hashable, Codable, Sendable {
    public var low: UInt8
    public var high: UInt8
    /// Output channel 1…16, or 0 to keep the input channel.
    public var channel: Int
    public var transpose: Int

    public init(low: UInt8, high: UInt8, channel: Int = 0, transpose: Int = 0) {
        self.low = low
        self.high = high
        self.channel = channel
        self.transpose = transpose
    }
}

/// Splits the keyboard into zones (overlapping zones layer): each note goes to every zone whose
/// range holds it, on the zone's channel and transposed by the zone's amount. Other channel
/// messages (sustain, bend) go to every zone's channel once. Parameters per zone N (1-based):
/// `zoneN.low`, `zoneN.high`, `zoneN.channel`, `zoneN.transpose`.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct KeyZones: MIDIProcessor {
    private static let fields = 4
    public let parameterInfos: [ParameterInfo]
    public let zoneCount: Int
    private var held: HeldNoteMap

    /// One zone per `zones` entry, its four parameters set from it.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init(zones: [KeyZone]) {
        zoneCount = zones.count
        held = HeldNoteMap(fanout: zones.count)
        var infos: [ParameterInfo] = []
        for (index, zone) in zones.enumerated() {
            let prefix = "zone\(index + 1)."
            let base = UInt32(index * Self.fields)
            infos += [
                ParameterInfo(id: base, name: prefix + "low", range: 0...127, defaultValue: Float(zone.low), unit: .generic),
                ParameterInfo(id: base + 1, name: prefix + "high", range: 0...127, defaultValue: Float(zone.high), unit: .generic),
                ParameterInfo(id: base + 2, name: prefix + "channel", range: 0...16, defaultValue: Float(zone.channel), unit: .generic),
                ParameterInfo(id: base + 3, name: prefix + "transpose", range: -48...48,
                              defaultValue: Float(zone.transpose), unit: .semitones),
            ]
        }
        parameterInfos = infos
    }

    private static func zone(_ index: Int, _ parameters: ParameterValues) -> (low: Int, high: Int, channel: Int, transpose: Int) {
        let base = index * Self.fields
        return (Int(parameters[base]), Int(parameters[base + 1]), Int(parameters[base + 2]), Int(parameters[base + 3]))
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        let zoneCount = zoneCount
        let handled = held.route(event, into: &output) { channel, note, emit in
            for index in 0..<zoneCount {
                let zone = Self.zone(index, parameters)
                guard (zone.low...max(zone.low, zone.high)).contains(Int(note)),
                      let shifted = UInt8.midiData(Int(note) + zone.transpose) else { continue }
                emit(zone.channel == 0 ? channel : UInt8(zone.channel - 1), shifted)
            }
        }
        guard !handled else { return }
        guard let channel = event.message.channel else { return output.append(event) }
        var sent: UInt16 = 0
        for index in 0..<zoneCount {
            let zoneChannel = Self.zone(index, parameters).channel
            let target = zoneChannel == 0 ? channel : UInt8(zoneChannel - 1)
            guard sent & (1 << target) == 0 else { continue }
            sent |= 1 << target
            output.append(TimedMIDI(time: event.time, message: event.message.onChannel(target)))
        }
    }
}
