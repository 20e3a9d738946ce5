import MIDICore

/// A sequence loaded into the hub's transport: its channel messages in playback order with
/// their ticks, its tempo map, its markers and its length. What a seek restores ("chase":
/// program, bank, controllers, pitch bend at the new position) is read from it.
///
/// - Thread: any (an immutable value, built on control).
public struct Song: Sendable {
    /// One channel message and the tick where it plays.
    public struct Event: Sendable, Equatable {
        public var tick: Tick
        public var message: MIDIMessage

        public init(tick: Tick, message: MIDIMessage) {
            self.tick = tick
            self.message = message
        }
    }

    /// A marker meta event (`FF 06`): a name to seek to.
    public struct Marker: Sendable, Equatable {
        public var name: String
        public var tick: Tick
    }

    /// What the status shows: the file's name.
    public let name: String
    /// The file it was read from (an overdub adds a track to it).
    public let file: MIDIFile
    /// In tick order; ties keep the file's merged order.
    public let events: [Event]
    public let tempoMap: TempoMap
    public let markers: [Marker]
    /// The last End of Track (or the last event): the song ends there.
    public let endTick: Tick
    /// Where the tempo or the time signature changes, in order.
    public let timingTicks: [Tick]

    /// - Thread: any.
    public init(file: MIDIFile, name: String) {
        self.name = name
        self.file = file
        var events: [Event] = []
        var markers: [Marker] = []
        for merged in file.mergedEvents() {
            switch merged.event.kind {
            case .midi(let message) where message.channel != nil:
                events.append(Event(tick: merged.event.tick, message: message))
            case .meta(.marker(let marker)):
                markers.append(Marker(name: marker, tick: merged.event.tick))
            default:
                continue
            }
        }
        self.events = events
        self.markers = markers
        tempoMap = TempoMap(file: file)
        endTick = max(file.durationTicks, events.last?.tick ?? 0)
        timingTicks = Set(tempoMap.tempoChanges.map(\.tick) + tempoMap.timeSignatures.map(\.tick)).sorted()
    }

    /// How long the song plays at its own tempo map.
    /// - Thread: any.
    public var length: HostDuration { tempoMap.duration(at: endTick) }

    /// The longest song the transport plays: a day. A file that lasts longer has delta times
    /// or a tempo gone wrong (47 bytes can last centuries), and its times would run past
    /// what host time holds.
    public static let longest: HostDuration = 86_400

    /// Why the transport refuses the song read from `path` (it lasts longer than `longest`),
    /// or `nil`.
    /// - Thread: any.
    public func refusal(path: String) -> (problem: String, fix: String)? {
        guard length > Self.longest else { return nil }
        let lasts = length.nanoseconds == .max ? "more than 292 years" : "\(length.nanoseconds / 3_600_000_000_000) hours"
        return ("\(path) lasts \(lasts); the transport plays songs of up to 24 hours",
                "check the file's delta times and tempo ('midihub info \(path)')")
    }

    /// The index of the first event at or after `tick` (`events.count` when none is).
    /// - Thread: any.
    public func firstEvent(atOrAfter tick: Tick) -> Int {
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].tick < tick { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The messages that restore every channel's state as the song left it just before
    /// `tick`: bank select and program, controllers (the registered parameters such as the
    /// pitch-bend range as RPN and data entry, then the RPN reset), pitch bend and channel
    /// pressure — only what the song set before `tick`.
    /// - Thread: any.
    public func chase(before tick: Tick) -> [MIDIMessage] {
        var channels = [ChannelChase](repeating: ChannelChase(), count: 16)
        for event in events[..<firstEvent(atOrAfter: tick)] {
            guard let channel = event.message.channel else { continue }
            channels[Int(channel)].record(event.message)
        }
        return channels.enumerated().flatMap { channel, state in state.messages(channel: UInt8(channel)) }
    }
}

/// One channel's state as far as a chase restores it.
///
/// - Thread: any (a plain value).
private struct ChannelChase {
    var program: UInt8?
    var controllers: [UInt8: UInt8] = [:]
    /// Registered parameters (MSB << 7 | LSB) and their data entry (MSB, LSB).
    var registered: [UInt16: (msb: UInt8, lsb: UInt8?)] = [:]
    var selected: (msb: UInt8, lsb: UInt8)? = nil
    var bend: UInt16?
    var pressure: UInt8?

    mutating func record(_ message: MIDIMessage) {
        switch message {
        case .programChange(_, let program):
            self.program = program
        case .pitchBend(_, let value):
            bend = value
        case .channelPressure(_, let value):
            pressure = value
        case .controlChange(_, let controller, let value):
            recordController(controller, value)
        default:
            return
        }
    }

    private mutating func recordController(_ controller: UInt8, _ value: UInt8) {
        switch controller {
        case 101: selected = (value, selected?.lsb ?? 127)
        case 100: selected = (selected?.msb ?? 127, value)
        case 98, 99: selected = nil  // an NRPN: not chased
        case 6, 38:
            guard let selected, selected != (127, 127) else { return }
            let number = UInt16(selected.msb) << 7 | UInt16(selected.lsb)
            if controller == 6 { registered[number] = (value, nil) } else { registered[number]?.lsb = value }
        case 120...127, 96, 97:
            return
        default:
            controllers[controller] = value
        }
    }

    func messages(channel: UInt8) -> [MIDIMessage] {
        var out: [MIDIMessage] = []
        for bank: UInt8 in [0, 32] {
            if let value = controllers[bank] { out.append(.controlChange(channel: channel, controller: bank, value: value)) }
        }
        if let program { out.append(.programChange(channel: channel, program: program)) }
        for (controller, value) in controllers.sorted(by: { $0.key < $1.key }) where controller != 0 && controller != 32 {
            out.append(.controlChange(channel: channel, controller: controller, value: value))
        }
        for (number, data) in registered.sorted(by: { $0.key < $1.key }) {
            out.append(.controlChange(channel: channel, controller: 101, value: UInt8(number >> 7)))
            out.append(.controlChange(channel: channel, controller: 100, value: UInt8(number & 0x7F)))
            out.append(.controlChange(channel: channel, controller: 6, value: data.msb))
            if let lsb = data.lsb { out.append(.controlChange(channel: channel, controller: 38, value: lsb)) }
        }
        if !registered.isEmpty {
            out.append(.controlChange(channel: channel, controller: 101, value: 127))
            out.append(.controlChange(channel: channel, controller: 100, value: 127))
        }
        if let bend { out.append(.pitchBend(channel: channel, value: bend)) }
        if let pressure { out.append(.channelPressure(channel: channel, pressure: pressure)) }
        return out
    }
}
