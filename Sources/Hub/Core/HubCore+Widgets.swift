import MIDICore
import RenderCore

/// Widgets that act (docs/mappings.md#widgets): a remote's gesture on a widget, turned into
/// the move of a parameter, the firing of a trigger or the switch of a scene.
extension HubCore {
    /// The widget `name` names: the first whose target is `name` (`synth.brightness`,
    /// `trigger.panic`, `scene`), else the first whose title is.
    /// - Throws: `HubRefusal` (`unknownWidget`) listing the targets when none is.
    /// - Thread: owner.
    func widget(named name: String) throws(HubRefusal) -> Widget {
        guard let widget = widgets.first(where: { $0.target == name }) ?? widgets.first(where: { $0.title == name }) else {
            throw HubRefusal(.unknownWidget, "no widget '\(name)'",
                             fix: widgets.isEmpty ? "add widgets: to the patch (docs/mappings.md#widgets)"
                                                  : "use one of \(widgets.map(\.target).joined(separator: ", "))")
        }
        return widget
    }

    /// What `gesture` on `widget` does now (`Widget.action(of:scenes:parameter:)`), with the
    /// scenes and the parameter's range and value as they are at `time`.
    /// - Throws: `HubRefusal` when the widget refuses the gesture or its parameter is gone.
    /// - Thread: owner.
    func action(of gesture: WidgetGesture, on widget: Widget, at time: HostTime) throws(HubRefusal) -> WidgetAction {
        try widget.action(of: gesture, scenes: scenes.map(\.name)) { () throws(HubRefusal) in
            (try parameterInfo(node: widget.node, widget.parameter), currentValue(of: widget.parameter, of: widget.node))
        }
    }
}
