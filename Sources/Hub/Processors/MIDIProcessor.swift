import MIDICore
import RenderCore

/// A MIDI → MIDI stage of the hub's graph (transpose, split, arpeggiator, …).
///
/// A processor keeps no parameter values: its node's values live in the graph (the one place
/// the mappings, the lists and the saved state read too), and each call is handed them as
/// ``ParameterValues``, read by parameter id.
///
/// `process` appends its output to a caller-owned buffer, so a caller that clears it with
/// `removeAll(keepingCapacity: true)` between events allocates nothing per event.
/// Events keep their input timestamps; only generators (the arpeggiator) produce new times.
/// - Thread: owner (the MIDI input thread, where the router runs it).
public protocol MIDIProcessor: Sendable {
    /// The processor's parameters, numbered 0, 1, 2, … (their defaults follow its configuration).
    /// - Thread: any.
    var parameterInfos: [ParameterInfo] { get }

    /// Handles one live or sequenced event with the node's `parameters`.
    /// - Thread: owner (the MIDI input thread; one thread per processor instance).
    mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI])

    /// Whether the processor generates events by itself (`generate` may emit): the router
    /// calls `generate` and `nextGeneratedTime` only on these.
    /// - Thread: owner (the MIDI input thread).
    var generates: Bool { get }

    /// Appends the events the processor generates by itself in `[start, end)`.
    /// Processors that only react to input do nothing here.
    /// - Thread: owner (the MIDI input thread).
    mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, parameters: ParameterValues,
                           into output: inout [TimedMIDI])

    /// The clock `generate` gets changed at `time` without keeping its beat position (a song
    /// started, sought or looped): what the processor counts in beats moves onto the new grid.
    /// - Thread: owner (the MIDI input thread).
    mutating func regrid(at time: HostTime, clock: TempoClock, parameters: ParameterValues)

    /// When `generate` with `clock` next has an event to emit, `nil` for nothing
    /// planned: the owner wakes for it instead of finding it on its next turn.
    /// - Thread: owner (the MIDI input thread).
    func nextGeneratedTime(clock: TempoClock, parameters: ParameterValues) -> HostTime?
}

/// Defaults for processors that only react to input.
extension MIDIProcessor {
    /// Only reacts to input.
    /// - Thread: owner (the MIDI input thread).
    public var generates: Bool { false }

    /// Generates nothing.
    /// - Thread: owner (the MIDI input thread).
    public mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, parameters: ParameterValues,
                                  into output: inout [TimedMIDI]) {}

    /// Nothing to move onto the new grid.
    /// - Thread: owner (the MIDI input thread).
    public mutating func regrid(at time: HostTime, clock: TempoClock, parameters: ParameterValues) {}

    /// Nothing planned.
    /// - Thread: owner (the MIDI input thread).
    public func nextGeneratedTime(clock: TempoClock, parameters: ParameterValues) -> HostTime? { nil }
}

/// A processor node's parameter values as its processor reads them: the parameters' list and
/// the values set on the node (in the graph: by the patch, a mapping, a request, a scene), the
/// others at their defaults, each clamped to its range. A view, not a copy: it holds the
/// graph node's own storage for the call.
///
/// - Thread: any (a plain value).
public struct ParameterValues: Sendable {
    public let infos: [ParameterInfo]
    @usableFromInline let set: [String: Float]

    /// `infos` (ids 0, 1, 2, … in order) with the values `set` by name.
    /// - Thread: any.
    @inlinable
    public init(_ infos: [ParameterInfo], set: [String: Float] = [:]) {
        self.infos = infos
        self.set = set
    }

    /// `infos` in their order, numbered 0, 1, 2, … (an LV2 plugin's are numbered by port).
    /// - Thread: any.
    public static func numbered(_ infos: [ParameterInfo]) -> [ParameterInfo] {
        infos.enumerated().map { index, info in
            var numbered = info
            numbered.id = UInt32(index)
            return numbered
        }
    }

    /// The value of parameter `id`: as set, else its default; within its range.
    /// - Thread: any.
    @inlinable
    public subscript(id: Int) -> Float {
        let info = infos[id]
        return info.clamp(set[info.name] ?? info.defaultValue)
    }

    /// - Thread: any.
    public func info(named name: String) -> ParameterInfo? { infos.first { $0.name == name } }

    /// - Thread: any.
    public func value(named name: String) -> Float? { info(named: name).map { self[Int($0.id)] } }

    /// The value `value` for parameter `name`, clamped to its range: what the graph keeps.
    /// - Throws: ``ParameterError`` for a name the processor does not have or a value that is no number.
    /// - Thread: any.
    public func checked(_ name: String, _ value: Float) throws(ParameterError) -> Float {
        guard let info = info(named: name) else { throw ParameterError.unknown(name, known: infos.map(\.name)) }
        guard value.isFinite else { throw ParameterError.notFinite(name) }
        return info.clamp(value)
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
