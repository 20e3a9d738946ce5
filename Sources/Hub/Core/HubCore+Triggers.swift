import MIDICore
import RenderCore

/// Triggers (docs/mappings.md#triggers): the core fires those that act on the hub's own state
/// — panic, tap tempo, an effect's bypass, a scene, the transport's; the shell runs `play`
/// (it reads a file) and `send` (it writes to ports) when the core says so.
/// - Thread: owner (the state's owner, the MIDI input thread).
extension HubCore {
    /// The hub's triggers, then the patch's.
    /// - Thread: owner.
    var allTriggers: [Trigger] { Trigger.system + triggers }

    /// The trigger called `name`.
    /// - Throws: `HubRefusal` when there is none (the fix lists them).
    /// - Thread: owner.
    func trigger(named name: String) throws(HubRefusal) -> Trigger {
        guard let trigger = allTriggers.first(where: { $0.name == name }) else {
            throw HubRefusal(.unknownTrigger, "no trigger '\(name)'",
                             fix: "use one of \(allTriggers.map(\.name).joined(separator: ", "))")
        }
        return trigger
    }

    /// Fires `trigger` at `time` (monotonic): panic ends every sounding note (into `sink`),
    /// tap tempo moves the tempo from the second tap on, bypass flips an effect's bypass, scene
    /// switches, a transport trigger moves the transport on `clock` (`stamp` names a take it
    /// ends); `play` and `send` come out as effects for the shell. Then the lights show the
    /// triggers' states.
    /// - Throws: `HubRefusal` when the trigger is disabled (its effect gone, no sequence, no
    ///   next song) or its scene is unknown (nothing changed).
    mutating func fire(_ trigger: Trigger, at time: HostTime, clock: TransportClock, stamp: String,
                       into sink: inout some RouteSink) throws(HubRefusal) -> [HubEffect] {
        var effects: [HubEffect]
        switch trigger.action {
        case .panic:
            router.panic(at: time, into: &sink)
            effects = [.log("panic: every note ended")]
        case .tapTempo:
            effects = []
            if let tempo = tapTempo.tap(at: time) {
                effects = try setParameter(node: Self.transportID, Self.tempoParameter.name,
                                           to: Self.tempoParameter.clamp(Float(tempo)), at: time).1
            }
        case .bypass(let node):
            // A runtime edit may have removed the effect: the trigger cannot fire then.
            guard let effect = router.graph.node(node) else {
                throw HubRefusal(.triggerDisabled, "trigger '\(trigger.name)' is disabled: the patch's effect '\(node)' is gone",
                                 fix: "load the patch again, or add the node back")
            }
            effects = try setParameter(node: node, ParameterInfo.bypass.name, to: effect.isBypassed ? 0 : 1, at: time,
                                       frameTime: time).1
        case .scene(let scene):
            effects = try switchScene(named: scene, at: time).1
        case .transport(let command):
            effects = try fireTransport(command, name: trigger.name, clock: clock, stamp: stamp)
        case .play(let path):
            effects = [.playFile(path, trigger: trigger.name)]
        case .send(let port, let bytes):
            effects = [.sendBytes(bytes, to: port)]
        }
        refreshTriggerLights(at: time)
        return effects + [.triggerFired(trigger.name)]
    }

    /// A transport trigger: `play` plays or pauses, `stop` stops, `rewind` goes back to the
    /// start, `next` plays the playlist's next song, `record` starts and ends a take.
    private mutating func fireTransport(_ command: TransportCommand, name: String, clock: TransportClock,
                                        stamp: String) throws(HubRefusal) -> [HubEffect] {
        if command == .record { return try transport(.toggleRecording(stamp: stamp), clock: clock) }
        guard transportTriggerState(command) != .disabled else {
            let why = command == .next ? "the playlist has no song after this one" : "the hub plays no sequence"
            throw HubRefusal(.triggerDisabled, "trigger '\(name)' is disabled: \(why)",
                             fix: "load one with 'midihub transport load FILE' or 'midihub play FILE'")
        }
        switch command {
        case .play: return try transport(transport.player.state == .playing ? .pause : .play, clock: clock)
        case .stop: return try transport(.stop, clock: clock)
        case .rewind: return try transport(.seek("1"), clock: clock)
        case .next: return try transport(.next, clock: clock)
        case .record: return []
        }
    }

    /// Fires the triggers mappings moved since the last tick (`applyMapped`), on `clock`.
    mutating func takeMovedTriggers(clock: TransportClock, stamp: String, into sink: inout some RouteSink) -> [HubEffect] {
        guard !triggerMoves.isEmpty else { return [] }
        let moves = triggerMoves
        triggerMoves.removeAll(keepingCapacity: true)
        return moves.flatMap { move in
            mappedTrigger(move.name, pressed: move.pressed, at: move.time, clock: clock, stamp: stamp, into: &sink)
        }
    }

    /// A mapping moved trigger `name`: fired when pressed; the pad's light then shows the
    /// trigger's state, not the press. A refusal is a warning.
    private mutating func mappedTrigger(_ name: String, pressed: Bool, at time: HostTime, clock: TransportClock, stamp: String,
                                into sink: inout some RouteSink) -> [HubEffect] {
        var effects: [HubEffect] = []
        if pressed {
            do {
                effects = try fire(trigger(named: name), at: time, clock: clock, stamp: stamp, into: &sink)
            } catch {
                effects = [.warning(error.description)]
            }
        }
        if let trigger = allTriggers.first(where: { $0.name == name }) {
            triggerLights[name] = Self.light(state(of: trigger, at: time))
            mappings.valueChanged(node: Patch.triggerNode, parameter: name)
        }
        return effects
    }

    /// How trigger `trigger` shows at `time` (monotonic).
    /// - Thread: owner.
    func state(of trigger: Trigger, at time: HostTime) -> TriggerState {
        switch trigger.action {
        case .transport(let command): transportTriggerState(command)
        case .scene(let scene): scene == currentScene ? .selected : .normal
        case .tapTempo: tapTempo.isPrimed(at: time) ? .alternate : .normal
        case .play(let path):
            transport.player.state == .playing && transport.player.song?.name == Self.songName(ofPath: path) ? .selected : .normal
        case .bypass(let node):
            // A runtime edit may have removed the effect: the trigger cannot fire then.
            router.graph.node(node).map { $0.isBypassed ? .selected : .normal } ?? .disabled
        case .panic, .send: .normal
        }
    }

    /// How a transport trigger shows: `record` selected while recording; `play` selected while
    /// playing; the others disabled without a sequence, `next` without a song to go to.
    func transportTriggerState(_ command: TransportCommand) -> TriggerState {
        if command == .record { return transport.isRecording ? .selected : .normal }
        guard transport.player.song != nil, command != .next || transport.playlist.hasNext else { return .disabled }
        return command == .play && transport.player.state == .playing ? .selected : .normal
    }

    /// A trigger's light: on when selected or primed.
    /// - Thread: any.
    public static func light(_ state: TriggerState) -> Float {
        state == .selected || state == .alternate ? 1 : 0
    }

    /// Shows changed trigger states on the controllers mapped to them with feedback (lit when
    /// selected or primed); also done once a second (`tick`), for tap tempo's priming running out.
    mutating func refreshTriggerLights(at time: HostTime) {
        lastTriggerLights = time
        for trigger in allTriggers {
            let lit = Self.light(state(of: trigger, at: time))
            guard triggerLights[trigger.name] != lit else { continue }
            triggerLights[trigger.name] = lit
            mappings.valueChanged(node: Patch.triggerNode, parameter: trigger.name)
        }
    }
}
