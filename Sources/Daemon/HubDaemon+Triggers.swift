import ALSA
import Control
import Hub
import MIDICore
import RenderCore

/// Triggers (docs/mappings.md#triggers): the hub's own and the patch's, fired by mapped
/// presses, `triggers.fire` and `midihub trigger NAME`.
extension HubDaemon {
    /// The hub's triggers, then the patch's.
    var allTriggers: [Trigger] { Trigger.system + core.triggers }

    /// Fires trigger `name` at `time` (the press's arrival, or now).
    /// - Throws: `ControlError` for an unknown trigger, a disabled one, or a scene it cannot switch to.
    /// - Thread: owner.
    func fireTrigger(named name: String, at time: Double) throws(ControlError) {
        guard let trigger = allTriggers.first(where: { $0.name == name }) else {
            throw ControlError(.unknownTrigger, "no trigger '\(name)'",
                               fix: "use one of \(allTriggers.map(\.name).joined(separator: ", "))")
        }
        switch trigger.action {
        case .panic:
            var sink = makeSink()
            core.router.panic(at: time, into: &sink)
            flush(sink)
            log.info("panic: every note ended")
        case .tapTempo:
            if let tempo = tapTempo.tap(at: time) {
                setTempo(tempo)
                core.mappings.valueChanged(node: HubCore.transportID, parameter: HubCore.tempoParameter.name, to: Float(tempo))
                log.publish(.parameterChanged(node: HubCore.transportID, parameter: HubCore.tempoParameter.name, value: tempo))
                saveState()
            }
        case .transport(let command):
            try fireTransportTrigger(command, name: name)
        case .send(let port, let bytes):
            var sink = makeSink()
            for destination in triggerPorts(port) {
                guard let address = SeqAddress(destination.address) else { continue }
                var parser = MIDIParser()
                for message in parser.parse(bytes) { sink.send(message, to: address) }
            }
            flush(sink)
        case .scene(let scene):
            try switchScene(named: scene)
        case .play(let path):
            playSequence(at: path, trigger: name)
        case .bypass(let node):
            guard let effect = core.router.graph.node(node) else {
                throw ControlError(.triggerDisabled, "trigger '\(name)' is disabled: the patch's effect '\(node)' is gone",
                                   fix: "load the patch again, or add the node back")
            }
            _ = try setParameter(node: node, ParameterInfo.bypass.name, to: effect.isBypassed ? 0 : 1, at: time)
        }
        log.publish(.triggerFired(trigger: name))
        showTriggerStates()
    }

    /// A mapping moved `trigger.NAME`: fires it when pressed (`HubCore.applyMapped`). The
    /// pad's light then shows the trigger's state, not the press.
    func mappedTrigger(_ name: String, pressed: Bool, at time: Double) {
        if pressed {
            do {
                try fireTrigger(named: name, at: time)
            } catch {
                log.warning(error.description)
            }
        }
        if let trigger = allTriggers.first(where: { $0.name == name }) {
            core.mappings.valueChanged(node: Patch.triggerNode, parameter: name, to: Self.light(state(of: trigger)))
        }
    }

    /// A trigger's light: on when selected or primed.
    static func light(_ state: TriggerState) -> Float {
        state == .selected || state == .alternate ? 1 : 0
    }

    /// How trigger `trigger` shows now.
    func state(of trigger: Trigger) -> TriggerState {
        switch trigger.action {
        case .transport(let command): transportTriggerState(command)
        case .scene(let scene): scene == core.currentScene ? .selected : .normal
        case .tapTempo: tapTempo.isPrimed(at: Self.now()) ? .alternate : .normal
        case .play(let path): player.state == .playing && player.song?.name == Self.songName(path) ? .selected : .normal
        case .bypass(let node):
            // A runtime edit may have removed the effect: the trigger cannot fire then.
            core.router.graph.node(node).map { $0.isBypassed ? .selected : .normal } ?? .disabled
        case .panic, .send: .normal
        }
    }

    /// Shows changed trigger states on the controllers mapped to them with feedback (lit when
    /// selected or primed); also called once a second, for tap tempo's priming running out.
    func showTriggerStates() {
        lastTriggerStateCheck = Self.now()
        for trigger in allTriggers {
            let lit = Self.light(state(of: trigger))
            guard core.mappings.value(node: Patch.triggerNode, parameter: trigger.name) != lit else { continue }
            core.mappings.valueChanged(node: Patch.triggerNode, parameter: trigger.name, to: lit)
        }
    }

    /// The ALSA ports a send trigger's selector names (midihub's own left out).
    func triggerPorts(_ selector: String) -> [PortDescriptor] {
        guard let selector = try? PortSelector(parsing: selector) else { return [] }
        return ports.descriptors.filter { port in
            port.direction.canReceive && port.address.client != client.clientID && !JackPortTable.isJack(port.address)
                && selector.matches(port)
        }
    }

    /// The triggers as `triggers.list` shows them.
    func triggerSummaries() -> [TriggerSummary] {
        allTriggers.map { MappingSummaries.summary($0, state: state(of: $0)) }
    }
}
