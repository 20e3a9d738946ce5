import MIDICore
import Control
import Hub
import SetupViews

/// Widgets (docs/mappings.md#widgets): what a remote's gesture on one does (the control side
/// lists them from the published view, `HubView.widgets`).
extension HubDaemon {
    /// Carries out `gesture` on widget `name` (its target, else its title) through the paths
    /// `parameters.set`, `triggers.fire` and `scenes.switch` take, so the same events follow.
    /// - Returns: what it did, and the widget (the control side shows it from the view
    ///   published after).
    /// - Throws: `ControlError` for an unknown widget, a gesture it refuses, or what the
    ///   request it stands for refuses (a disabled trigger, a node gone).
    /// - Thread: owner.
    func act(on name: String, _ gesture: WidgetGesture) throws(ControlError) -> (WidgetAction, Widget) {
        let now = HostTime.now()
        let widget: Widget, action: WidgetAction
        do {
            widget = try core.snapshot.widget(named: name)
            action = try core.snapshot.action(of: gesture, on: widget, at: now)
        } catch {
            throw ControlError(error)
        }
        switch action {
        case .setParameter(let node, let parameter, let value): _ = try setParameter(node: node, parameter, to: value)
        case .fireTrigger(let trigger): try fireTrigger(named: trigger, at: now)
        case .switchScene(let scene): try switchScene(named: scene)
        case .nothing: break
        }
        return (action, widget)
    }
}
