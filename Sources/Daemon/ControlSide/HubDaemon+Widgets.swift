import MIDICore
import Control
import Hub
import SetupViews

/// Widgets (docs/mappings.md#widgets): what a remote shows, with the values now, and what a
/// remote's gesture on one does.
extension HubDaemon {
    /// The widgets as `widgets.list` shows them (with no audio too: values come from the graph;
    /// an output's value only while audio runs).
    /// - Thread: owner.
    func widgetSummaries() -> [WidgetSummary] {
        let now = HostTime.now()
        return core.widgets.map { summary(of: $0, at: now) }
    }

    /// Carries out `gesture` on widget `name` (its target, else its title) through the paths
    /// `parameters.set`, `triggers.fire` and `scenes.switch` take, so the same events follow.
    /// - Returns: what it did, and the widget as `widgets.list` shows it after.
    /// - Throws: `ControlError` for an unknown widget, a gesture it refuses, or what the
    ///   request it stands for refuses (a disabled trigger, a node gone).
    /// - Thread: owner.
    func act(on name: String, _ gesture: WidgetGesture) throws(ControlError) -> (WidgetAction, WidgetSummary) {
        let now = HostTime.now()
        let widget: Widget, action: WidgetAction
        do {
            widget = try core.widget(named: name)
            action = try core.action(of: gesture, on: widget, at: now)
        } catch {
            throw ControlError(error)
        }
        switch action {
        case .setParameter(let node, let parameter, let value): _ = try setParameter(node: node, parameter, to: value)
        case .fireTrigger(let trigger): try fireTrigger(named: trigger, at: now)
        case .switchScene(let scene): try switchScene(named: scene)
        case .nothing: break
        }
        return (action, summary(of: widget, at: HostTime.now()))
    }

    /// `widget` as `widgets.list` shows it at `now`.
    /// - Thread: owner.
    private func summary(of widget: Widget, at now: HostTime) -> WidgetSummary {
        if widget.showsOutput {
            let output = core.router.graph.node(widget.node).flatMap { node in
                NodeTypes.registry.outputs(of: node.body).first { $0.name == widget.parameter }
            }
            return MappingSummaries.summary(widget, output: output, value: audio?.outputValue(of: widget.node, widget.parameter))
        }
        let trigger = widget.kind == .button ? core.allTriggers.first { $0.name == widget.parameter } : nil
        return MappingSummaries.summary(widget, info: widget.kind == .button ? nil : try? parameterInfo(node: widget.node, widget.parameter),
                                        value: core.currentValue(of: widget.parameter, of: widget.node, at: now),
                                        state: trigger.map { core.state(of: $0, at: now) }, scenes: core.scenes.map(\.name),
                                        currentScene: core.currentScene)
    }
}
