import MIDICore
import RenderCore

/// A MIDI → MIDI stage of the hub's graph (transpose, split, arpeggiator, …).
///
/// `process` appends its output to a caller-owned buffer, so a caller that clears it with
/// `removeAll(keepingCapacity: true)` between events allocates nothing per event.
/// Events keep their input timestamps; only generators (the arpeggiator) produce new times.
/// - Thread: owner (the MIDI input thread, where the router runs it).
public protocol MIDIProcessor: Sendable {
    /// The processor's parameters and their current values.
    var parameters: ParameterValues { get set }

    /// Handles one live or sequenced event.
    /// - Thread: owner (the MIDI input thread; one thread per processor instance).
    mutating func process(_ event: TimedMIDI, into output: inout [TimedMIDI])

    /// Whether the processor generates events by itself (`generate` may emit): the router
    /// calls `generate` and `nextGeneratedTime` only on these.
    /// - Thread: owner (the MIDI input thread).
    var generates: Bool { get }

    /// Appends the events the processor generates by itself in `[start, end)`.
    /// Processors that only react to input do nothing here.
    /// - Thread: owner (the MIDI input thread).
    mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, into output: inout [TimedMIDI])

    /// The clock `generate` gets changed at `time` without keeping its beat position (a song
    /// started, sought or looped): what the processor counts in beats moves onto the new grid.
    /// - Thread: owner (the MIDI input thread).
    mutating func regrid(at time: HostTime, clock: TempoClock)

    /// When `generate` with `clock` next has an event to emit, `nil` for nothing
    /// planned: the owner wakes for it instead of finding it on its next turn.
    /// - Thread: owner (the MIDI input thread).
    func nextGeneratedTime(clock: TempoClock) -> HostTime?
}

/// Defaults for processors that only react to input, and setting a parameter by name.
extension MIDIProcessor {
    /// Only reacts to input.
    /// - Thread: owner (the MIDI input thread).
    public var generates: Bool { false }

    /// Generates nothing.
    /// - Thread: owner (the MIDI input thread).
    public mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock,
                                  into output: inout [TimedMIDI]) {}

    /// Nothing to move onto the new grid.
    /// - Thread: owner (the MIDI input thread).
    public mutating func regrid(at time: HostTime, clock: TempoClock) {}

    /// Nothing planned.
    /// - Thread: owner (the MIDI input thread).
    public func nextGeneratedTime(clock: TempoClock) -> HostTime? { nil }

    /// Sets a parameter by name, clamped to its range.
    /// - Throws: ``ParameterError/unknown(_:known:)`` for a name the processor does not have.
    /// - Thread: any but render (the processor's thread: the owner for the router's processors).
    public mutating func set(_ name: String, to value: Float) throws(ParameterError) {
        try parameters.set(name, to: value)
    }
}

/// The parameter list of a processor with its current values, indexed by parameter id.
///
/// - Thread: any (a plain value).
public struct ParameterValues: Hashable, Sendable {
    public let infos: [ParameterInfo]
    public private(set) var values: [Float]

    /// Parameter ids must be 0, 1, 2, … in order.
    public init(_ infos: [ParameterInfo]) {
        precondition(infos.indices.allSatisfy { infos[$0].id == UInt32($0) }, "parameter ids must be 0..<count")
        self.infos = infos
        self.values = infos.map(\.defaultValue)
    }

    /// `infos` in their order, numbered 0, 1, 2, … (an LV2 plugin's are numbered by port).
    public init(renumbering infos: [ParameterInfo]) {
        self.init(infos.enumerated().map { index, info in
            var numbered = info
            numbered.id = UInt32(index)
            return numbered
        })
    }

    @inlinable
    public subscript(id: Int) -> Float { values[id] }

    /// Sets a value by id, clamped to the parameter's range.
    public mutating func set(id: Int, to value: Float) {
        values[id] = infos[id].clamp(value)
    }

    public func info(named name: String) -> ParameterInfo? { infos.first { $0.name == name } }

    public func value(named name: String) -> Float? { info(named: name).map { values[Int($0.id)] } }

    public mutating func set(_ name: String, to value: Float) throws(ParameterError) {
        guard let info = info(named: name) else { throw ParameterError.unknown(name, known: infos.map(\.name)) }
        guard value.isFinite else { throw ParameterError.notFinite(name) }
        set(id: Int(info.id), to: value)
    }
}

/// A parameter could not be set.
///
/// - Thread: any (a plain value).
public enum ParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknown(String, known: [String])
    case notFinite(String)

    public var description: String {
        switch self {
        case .unknown(let name, let known):
            "unknown parameter '\(name)' (fix: use one of \(known.joined(separator: ", ")))"
        case .notFinite(let name):
            "parameter '\(name)' needs a finite number (fix: write a number like 0.5)"
        }
    }
}

/// - Thread: any (pure).
extension UInt8 {
    /// `value` as a MIDI data byte when it lies in 0…127.
    @inlinable
    static func midiData(_ value: Int) -> UInt8? { (0...127).contains(value) ? UInt8(value) : nil }
}
