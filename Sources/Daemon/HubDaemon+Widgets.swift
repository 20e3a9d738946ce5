import Control
import Hub

/// Widgets (docs/mappings.md#widgets): what a remote shows, with the values now.
extension HubDaemon {
    /// The widgets as `widgets.list` shows them (with no audio too: values come from the graph).
    /// - Thread: owner.
    func widgetSummaries() -> [WidgetSummary] {
        widgets.map { widget in
            let trigger = widget.kind == .button ? allTriggers.first { $0.name == widget.parameter } : nil
            return MappingSummaries.summary(widget, info: widget.kind == .button ? nil : try? parameterInfo(node: widget.node, widget.parameter),
                                            value: currentValue(of: widget.parameter, of: widget.node),
                                            state: trigger.map(state(of:)), scenes: scenes.map(\.name), currentScene: currentScene)
        }
    }
}
