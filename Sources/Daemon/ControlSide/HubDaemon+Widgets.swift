import MIDICore
import Control
import Hub
import SetupViews

/// Widgets (docs/mappings.md#widgets): what a remote shows, with the values now.
extension HubDaemon {
    /// The widgets as `widgets.list` shows them (with no audio too: values come from the graph;
    /// an output's value only while audio runs).
    /// - Thread: owner.
    func widgetSummaries() -> [WidgetSummary] {
        let now = HostTime.now()
        return core.widgets.map { widget in
            if widget.showsOutput {
                let output = core.router.graph.node(widget.node).flatMap { node in
                    NodeTypes.registry.outputs(of: node.body).first { $0.name == widget.parameter }
                }
                return MappingSummaries.summary(widget, output: output, value: audio?.outputValue(of: widget.node, widget.parameter))
            }
            let trigger = widget.kind == .button ? core.allTriggers.first { $0.name == widget.parameter } : nil
            return MappingSummaries.summary(widget, info: widget.kind == .button ? nil : try? parameterInfo(node: widget.node, widget.parameter),
                                            value: core.currentValue(of: widget.parameter, of: widget.node, at: now),
                                            state: trigger.map { core.state(of: $0, at: now) }, scenes: core.scenes.map(\.name), currentScene: core.currentScene)
        }
    }
}
