import ALSA
import Control
import Hub
import MIDICore
import RenderCore
import SetupViews

/// Triggers (docs/mappings.md#triggers): the hub's own and the patch's, fired by mapped
/// presses, `triggers.fire` and `midihub trigger NAME`.
extension HubDaemon {
    /// Fires trigger `name` at `time` (the press's arrival, or now): the core fires those that
    /// act on the hub's state (`HubCore.fire`), the daemon the transport's, `play` and `send`.
    /// - Throws: `ControlError` for an unknown trigger, a disabled one, or a scene it cannot switch to.
    /// - Thread: owner.
    func fireTrigger(named name: String, at time: Double) throws(ControlError) {
        let trigger: Trigger
        do {
            trigger = try core.trigger(named: name)
        } catch {
            throw ControlError(error)
        }
        switch trigger.action {
        case .transport(let command):
            try fireTransportTrigger(command, name: name)
        case .send(let port, let bytes):
            for destination in triggerPorts(port) {
                guard let address = SeqAddress(destination.address) else { continue }
                var parser = MIDIParser()
                for message in parser.parse(bytes) { receivers.send(message, to: address) }
            }
        case .play(let path):
            playSequence(at: path, trigger: name)
        case .panic, .tapTempo, .bypass, .scene:
            try run { (core, sink) throws(HubRefusal) in try core.fire(trigger, at: time, into: &sink) }
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
        if let trigger = core.allTriggers.first(where: { $0.name == name }) {
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
        case .tapTempo: core.tapTempo.isPrimed(at: Self.now()) ? .alternate : .normal
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
        for trigger in core.allTriggers {
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
        core.allTriggers.map { MappingSummaries.summary($0, state: state(of: $0)) }
    }
}
