import MIDICore

/// A trigger: an action the hub does when fired — by a mapped pad or key (`trigger.NAME`),
/// `triggers.fire` or `midihub trigger NAME` (docs/mappings.md#triggers).
///
/// - Thread: any (a plain value).
public struct Trigger: Hashable, Sendable, Codable {
    public var name: String
    public var action: TriggerAction

    public init(name: String, action: TriggerAction) {
        self.name = name
        self.action = action
    }

    /// The hub's own triggers, always there (a patch's come after them).
    public static let system: [Trigger] = [
        Trigger(name: "panic", action: .panic),
        Trigger(name: "tap tempo", action: .tapTempo),
    ] + TransportCommand.allCases.map { Trigger(name: $0.rawValue, action: .transport($0)) }
}

/// What a trigger does.
/// - Thread: any (a plain value).
public enum TriggerAction: Hashable, Sendable, Codable {
    /// Ends every sounding note: note-offs for what the hub holds, all sound off at built-in
    /// nodes, sustain off and all notes off at external ones.
    case panic
    /// Taps the tempo: the hub's tempo follows the intervals between taps.
    case tapTempo
    /// Transport commands, for the sequencer in the hub; disabled while it has none.
    case transport(TransportCommand)
    /// Sends these bytes (whole MIDI messages) to the ports the selector (rule syntax) names.
    case send(port: String, bytes: [UInt8])
    /// Switches to this scene.
    case scene(String)
    /// Loads this sequence file (an absolute path) into the transport and plays it from the top.
    case play(path: String)
    /// Turns this effect's `bypass` on, or off again.
    case bypass(node: String)
}

/// The transport's triggers.
/// - Thread: any (a plain value).
public enum TransportCommand: String, Hashable, Sendable, Codable, CaseIterable {
    case play, stop, record, rewind, next
}

/// How a trigger shows on a remote and a controller's light.
/// - Thread: any (a plain value).
public enum TriggerState: String, Hashable, Sendable, Codable {
    case normal
    /// Its scene is the current one; its sequence plays; its effect is bypassed.
    case selected
    /// It cannot fire now (the transport's, while the hub plays no sequence).
    case disabled
    /// Primed: tap tempo between its first tap and the next.
    case alternate
}

/// Tap tempo: the tempo from the intervals between taps, as a drummer counts in — the
/// mean of the last four intervals; a pause of more than two seconds starts over.
///
/// - Thread: owner (the daemon's state owner); a plain value.
public struct TapTempo: Hashable, Sendable {
    private var taps: [HostTime] = []
    public static let pause: HostDuration = 2

    public init() {}

    /// A tap at `time`: the tempo it gives (quarter notes per minute, 20…400), or
    /// `nil` on a first tap.
    public mutating func tap(at time: HostTime) -> Double? {
        if let last = taps.last, time - last > Self.pause || time <= last { taps.removeAll() }
        taps.append(time)
        if taps.count > 5 { taps.removeFirst() }
        guard taps.count > 1, let first = taps.first, let last = taps.last else { return nil }
        let interval = (last - first).seconds / Double(taps.count - 1)
        return min(max(60 / interval, 20), 400)
    }

    /// Whether a tap at `time` would carry on from the taps so far (it is primed).
    public func isPrimed(at time: HostTime) -> Bool {
        taps.last.map { time - $0 <= Self.pause } ?? false
    }
}
