import MIDICore

/// Moves parameters by controller: reads each message for the controls it carries
/// (`ControllerDecoder`), finds the mappings listening to them and turns the control's
/// position into each target's value, with pickup, relative ticks and button modes.
/// It keeps no value of its own: pickup, toggles and encoders start from where the parameter
/// is, read from the one place values live (`ParameterReading`: the hub's graph), and what it
/// set for the message in hand from the changes it handed out; `valueChanged` tells it that
/// something else moved a parameter (pickup starts over, feedback is due).
///
/// Feedback: a mapping with `feedback` whose first target changes is due to show the value on
/// its controller — when something else changed it (the control API, another mapping, a
/// patch), and after its own moves when the controller cannot know the value itself (an
/// endless encoder's ring, a toggle's light); a knob's or fader's own moves are not echoed.
/// `takeFeedback` hands out what is due, so the caller can pace it.
///
/// No I/O and no clock: the caller passes each message's time and carries out the changes.
///
/// - Thread: owner (the MIDI input thread, the daemon's state owner); a plain value.
public struct MappingEngine {
    /// A parameter value a mapping set: target `target` of mapping `mapping` (indices into
    /// `mappings`, so the core finds where it lands without a name lookup; -1 when unknown).
    public struct Change: Hashable, Sendable {
        public var node: NodeID
        public var parameter: String
        public var value: Float
        public var mapping = -1
        public var target = -1
    }

    /// Tells one engine's mapping list from another's (copies share it): what the core resolved
    /// the targets for (`HubCore.applyMapped`).
    private final class Identity: Sendable {}
    private let identity = Identity()
    public var listIdentity: ObjectIdentifier { ObjectIdentifier(identity) }

    public private(set) var mappings: [Mapping]
    /// How close (as a share of travel) a control must come to the value to pick it up.
    public static let pickupWindow = 1.5 / 127
    /// A latching button held at least this long is on only while held.
    public static let latchHold: HostDuration = 0.3
    /// For this long after feedback, the controller sending back the position it
    /// was shown (within 1/127) is its echo, not a move (controllers with soft-thru, a
    /// port that loops back).
    public static let echoWindow: HostDuration = 0.5

    private struct TargetKey: Hashable {
        var node: NodeID
        var parameter: String
    }

    /// Where one mapping's control is, as far as the engine knows.
    private struct Progress {
        /// The control's last absolute position (0…1).
        var position: Double?
        /// Per target: whether the control has picked up the value (pickup and scaled modes).
        var engaged: [Bool]
        /// When a latching button went down, and whether it was on before.
        var pressedAt: HostTime?
        var wasOnAtPress = false
        /// The position feedback last showed and when: what the controller may echo back.
        var shown: (position: Double, time: HostTime)?
    }

    private var progress: [Progress]
    /// The (mapping, target) indices moving each parameter.
    private var movers: [TargetKey: [(mapping: Int, target: Int)]] = [:]
    private var decoders: [Int: ControllerDecoder] = [:]
    /// Per mapping: whether its controller should be shown its value.
    private var feedbackDue: [Bool]
    private var readings: [ControllerReading] = []

    public init(_ mappings: [Mapping] = []) {
        self.mappings = mappings
        progress = mappings.map { Progress(engaged: Array(repeating: false, count: $0.targets.count)) }
        feedbackDue = Array(repeating: false, count: mappings.count)
        for (m, mapping) in mappings.enumerated() {
            for (t, target) in mapping.targets.enumerated() {
                movers[TargetKey(node: target.node, parameter: target.parameter), default: []].append((m, t))
            }
        }
    }

    public var isEmpty: Bool { mappings.isEmpty }

    /// Whether a mapping may take messages from a port that feeds the source nodes `sources`
    /// (one that names none of them, or reads every port).
    func mayTake(fromSources sources: [NodeID]) -> Bool {
        mappings.contains { mapping in mapping.from.map(sources.contains) ?? true }
    }

    /// Reads `message`, which arrived at `time` from the port `device` (any key
    /// stable per port: NRPN selection and 14-bit pairs are followed per port and channel),
    /// a port that feeds the source nodes `sources`; the parameters are where `values` says
    /// (before the changes this call appends to `changes`, which the caller then carries out).
    /// - Returns: whether a mapping takes the message (it should not go on into the graph).
    public mutating func handle(_ message: MIDIMessage, device: Int, sources: [NodeID], time: HostTime,
                                values: some ParameterReading, into changes: inout [Change]) -> Bool {
        guard !mappings.isEmpty else { return false }
        readings.removeAll(keepingCapacity: true)
        decoders[device, default: ControllerDecoder()].read(message, into: &readings)
        var taken = false
        // The caller's buffer moves in and back out (a copy would make appending allocate).
        var moves = Moves(values: values, changes: [], first: changes.count)
        swap(&moves.changes, &changes)
        defer { swap(&moves.changes, &changes) }
        for reading in readings {
            for index in mappings.indices where Self.listens(mappings[index], to: reading, from: sources) {
                if !mappings[index].passes { taken = true }
                move(index, by: reading, time: time, into: &moves)
            }
        }
        return taken
    }

    /// Notes a value set by something other than a mapping (the control API, a patch, a
    /// trigger's light): the mappings moving it must pick it up again.
    public mutating func valueChanged(node: NodeID, parameter: String) {
        let key = TargetKey(node: node, parameter: parameter)
        for (m, t) in movers[key] ?? [] {
            progress[m].engaged[t] = false
            if t == 0 { feedbackDue[m] = mappings[m].feedback }
        }
    }

    /// Makes every mapping with feedback from the source nodes `sources` (all when `nil`) due
    /// to show its value: its controller came back, or the mappings were just installed.
    public mutating func showValues(from sources: Set<NodeID>? = nil) {
        for (index, mapping) in mappings.enumerated() where mapping.feedback {
            if let sources, !sources.contains(mapping.from ?? "") { continue }
            feedbackDue[index] = true
        }
    }

    /// The mappings due to show their value (read from `values`), with the messages that show
    /// it, sent at `time`; none is due after.
    public mutating func takeFeedback(at time: HostTime, values: some ParameterReading) -> [(mapping: Mapping, messages: [MIDIMessage])] {
        var due: [(mapping: Mapping, messages: [MIDIMessage])] = []
        for index in mappings.indices where feedbackDue[index] {
            feedbackDue[index] = false
            guard let target = mappings[index].targets.first else { continue }
            let value = values.value(of: target.parameter, of: target.node) ?? target.low
            progress[index].shown = (target.position(of: value), time)
            due.append((mappings[index], mappings[index].feedback(showing: value)))
        }
        return due
    }

    /// Whether a mapping is due to show its value.
    public var hasFeedbackDue: Bool { feedbackDue.contains(true) }

    private static func listens(_ mapping: Mapping, to reading: ControllerReading, from sources: [NodeID]) -> Bool {
        guard mapping.source == reading.source else { return false }
        if let channel = mapping.channel, channel != reading.channel { return false }
        if let from = mapping.from, !sources.contains(from) { return false }
        return true
    }

    private mutating func move(_ index: Int, by reading: ControllerReading, time: HostTime, into moves: inout Moves<some ParameterReading>) {
        let mapping = mappings[index]
        switch (mapping.mode, reading.kind) {
        case (.absolute, .value(let value)):
            follow(index, to: Double(value) / 127, time: time, into: &moves)
        case (.absolute, .fine(let value)):
            follow(index, to: Double(value) / 16383, time: time, into: &moves)
        case (.absolute, .step(let ticks)), (.relative, .step(let ticks)):
            nudge(index, by: Double(ticks) / (mapping.source.isFine ? 16383 : 127), into: &moves)
        case (.relative(let encoding), .value(let value)):
            let ticks = encoding.ticks(value)
            guard ticks != 0 else { return }
            let magnitude = Double(abs(ticks))
            let accelerated = magnitude * (1 + mapping.acceleration * (magnitude - 1))
            nudge(index, by: (ticks < 0 ? -accelerated : accelerated) * mapping.step, into: &moves)
        case (.velocity, .press(let velocity)):
            set(index, to: Double(velocity) / 127, into: &moves)
        case (.button(let mode), .press), (.button(let mode), .release), (.button(let mode), .value):
            press(index, mode: mode, down: Self.isDown(reading.kind), time: time, into: &moves)
        default:
            return
        }
    }

    private static func isDown(_ kind: ControllerReading.Kind) -> Bool {
        switch kind {
        case .press: true
        case .value(let value): value >= 64
        default: false
        }
    }

    /// The control's position as its first target's value says.
    private func position(of index: Int, in moves: Moves<some ParameterReading>) -> Double {
        guard let target = mappings[index].targets.first else { return 0 }
        return target.position(of: moves.value(of: target))
    }

    private mutating func nudge(_ index: Int, by delta: Double, into moves: inout Moves<some ParameterReading>) {
        set(index, to: min(max(position(of: index, in: moves) + delta, 0), 1), into: &moves)
    }

    private mutating func press(_ index: Int, mode: ButtonMode, down: Bool, time: HostTime,
                                into moves: inout Moves<some ParameterReading>) {
        let isOn = position(of: index, in: moves) >= 0.5
        switch mode {
        case .momentary:
            set(index, to: down ? 1 : 0, into: &moves)
        case .toggle:
            if down { set(index, to: isOn ? 0 : 1, into: &moves) }
        case .trigger:
            if down { set(index, to: 1, into: &moves) }
        case .latch:
            if down {
                progress[index].pressedAt = time
                progress[index].wasOnAtPress = isOn
                set(index, to: 1, into: &moves)
            } else if let pressedAt = progress[index].pressedAt {
                progress[index].pressedAt = nil
                if time - pressedAt >= Self.latchHold || progress[index].wasOnAtPress { set(index, to: 0, into: &moves) }
            }
        }
    }

    /// Sets every target of mapping `index` to control position `position`.
    private mutating func set(_ index: Int, to position: Double, into moves: inout Moves<some ParameterReading>) {
        for target in mappings[index].targets.indices { emit(index, target, at: position, into: &moves) }
    }

    /// Follows an absolute control to `position`, each target as the mapping's pickup mode says.
    private mutating func follow(_ index: Int, to position: Double, time: HostTime, into moves: inout Moves<some ParameterReading>) {
        if let shown = progress[index].shown, time - shown.time < Self.echoWindow, abs(position - shown.position) <= 1.0 / 127 {
            return
        }
        let mapping = mappings[index]
        let last = progress[index].position
        progress[index].position = position
        for (t, target) in mapping.targets.enumerated() {
            var reached = position
            if mapping.pickup != .jump, !progress[index].engaged[t] {
                let at = target.position(of: moves.value(of: target))
                let crossed = last.map { ($0 - at) * (position - at) <= 0 } ?? false
                if abs(position - at) <= Self.pickupWindow || crossed {
                    progress[index].engaged[t] = true
                } else if mapping.pickup == .scaled, let last, last != position {
                    reached = position > last ? at + (position - last) * (1 - at) / (1 - last)
                                              : at - (last - position) * at / last
                    if abs(reached - position) <= Self.pickupWindow { progress[index].engaged[t] = true }
                } else {
                    continue
                }
            }
            emit(index, t, at: reached, into: &moves)
        }
    }

    /// Sets target `t` of mapping `index`; other mappings moving the same parameter must pick it up again.
    private mutating func emit(_ index: Int, _ t: Int, at position: Double, into moves: inout Moves<some ParameterReading>) {
        let target = mappings[index].targets[t]
        let key = TargetKey(node: target.node, parameter: target.parameter)
        let value = target.value(at: position)
        for (m, other) in movers[key] ?? [] where m != index {
            progress[m].engaged[other] = false
            if other == 0 { feedbackDue[m] = mappings[m].feedback }
        }
        if t == 0, mappings[index].feedback, !mappings[index].mode.controllerKnowsPosition { feedbackDue[index] = true }
        moves.changes.append(Change(node: target.node, parameter: target.parameter, value: value, mapping: index, target: t))
    }
}

/// Where parameters are now, as the mapping engine reads them: the one place the hub keeps
/// each value (`HubCore`'s graph, the tempo, the triggers' lights), or a test's table.
///
/// - Thread: owner (the engine's thread).
public protocol ParameterReading {
    /// Parameter `parameter` of node `node` now; `nil` when unknown (taken as the target's low end).
    func value(of parameter: String, of node: NodeID) -> Float?
}

extension MappingEngine {
    /// The values of one `handle` call: where `values` says, but for what the call set already
    /// (the changes it appended since `first`, not carried out yet).
    ///
    /// - Thread: owner (a plain value, for one call).
    struct Moves<Values: ParameterReading> {
        let values: Values
        var changes: [Change]
        let first: Int

        /// Target `target`'s value: the last this call set, else `values`', else its low end.
        func value(of target: MappingTarget) -> Float {
            if changes.count > first {
                for change in changes[first...].reversed() where change.node == target.node && change.parameter == target.parameter {
                    return change.value
                }
            }
            return values.value(of: target.parameter, of: target.node) ?? target.low
        }
    }
}
