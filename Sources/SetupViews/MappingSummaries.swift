import Control
import Foundation
import Hub
import RenderCore

/// Mappings as the control protocol and `midihub mappings` show them (docs/mappings.md's words).
///
/// - Thread: any.
public enum MappingSummaries {
    /// `mapping` with each target's value as `value` gives it (`nil`: none, its node is gone or no scene is current).
    public static func summary(_ mapping: Mapping, value: (NodeID, String) -> Float?) -> MappingSummary {
        let mode: String, encoding: String?
        switch mapping.mode {
        case .absolute: (mode, encoding) = ("absolute", nil)
        case .velocity: (mode, encoding) = ("velocity", nil)
        case .relative(let kind): (mode, encoding) = ("relative", kind.rawValue)
        case .button(let button): (mode, encoding) = (button.rawValue, nil)
        }
        let targets = mapping.targets.map { target in
            MappingTargetSummary(node: target.node, parameter: target.parameter, low: Double(target.low), high: Double(target.high),
                                 curve: target.curve.rawValue, invert: target.invert, steps: target.steps,
                                 values: target.values?.map(Double.init), value: value(target.node, target.parameter).map(Double.init))
        }
        return MappingSummary(control: mapping.source.label, channel: mapping.channel.map { Int($0) + 1 }, from: mapping.from,
                              mode: mode, encoding: encoding, pickup: mapping.pickup.rawValue, pass: mapping.passes,
                              targets: targets)
    }

    /// A patch's mappings, each target at the value the patch gives it (else its default).
    public static func summaries(_ patch: Patch) -> [MappingSummary] {
        patch.mappings.map { summary($0) { id, name in value(of: name, of: id, in: patch.graph, tempo: patch.tempo) } }
    }

    /// `scenes` as `scenes.list` shows them, `current` marked.
    public static func scenes(_ scenes: [Scene], current: String?) -> [SceneSummary] {
        scenes.map { scene in
            SceneSummary(name: scene.name, program: scene.program.map(Int.init), current: scene.name == current,
                         values: scene.values.map { ParameterAssignment(node: $0.node, parameter: $0.parameter, value: Double($0.value)) },
                         patch: scene.patch)
        }
    }

    /// One line of `midihub scene`: `* verse (program 0): synth.brightness = -12, up.semitones = 0`,
    /// or `  bridge (program 1): patch /home/me/bridge.yaml`.
    public static func line(_ scene: SceneSummary) -> String {
        (scene.current ? "* " : "  ") + scene.name + (scene.program.map { " (program \($0))" } ?? "") + ": "
            + (scene.patch.map { "patch " + $0 }
               ?? scene.values.map { "\($0.node).\($0.parameter) = \(format($0.value))" }.joined(separator: ", "))
    }

    /// `trigger` as `triggers.list` shows it.
    public static func summary(_ trigger: Trigger, state: TriggerState) -> TriggerSummary {
        let action = switch trigger.action {
        case .panic: "all notes off"
        case .tapTempo: "tap tempo"
        case .transport(let command): "transport \(command.rawValue)"
        case .send(let port, let bytes): "send \(bytes.map { String(format: "%02X", $0) }.joined(separator: " ")) to \(port)"
        case .scene(let scene): "scene \(scene)"
        case .play(let path): "play \(path)"
        case .bypass(let node): "bypass \(node)"
        }
        return TriggerSummary(name: trigger.name, action: action, state: state.rawValue)
    }

    /// A patch's triggers after the hub's own, as a daemon just started with it shows them.
    public static func triggers(_ patch: Patch) -> [TriggerSummary] {
        (Trigger.system + patch.triggers).map { trigger in
            if case .transport = trigger.action { summary(trigger, state: .disabled) } else { summary(trigger, state: .normal) }
        }
    }

    /// One line of `midihub trigger`: `panic  all notes off  (normal)`.
    public static func line(_ trigger: TriggerSummary) -> String {
        "\(trigger.name): \(trigger.action) (\(trigger.state))"
    }

    /// `widget` as `widgets.list` shows it, with what it shows now: `info` gives a parameter's
    /// range and unit, `value` its value, `state` a trigger's state.
    public static func summary(_ widget: Widget, info: ParameterInfo?, value: Float?, state: TriggerState?,
                               scenes: [String], currentScene: String?) -> WidgetSummary {
        var summary = WidgetSummary(kind: widget.kind.rawValue, title: widget.title, target: widget.target)
        switch widget.kind {
        case .button:
            summary.state = state?.rawValue
        case .selector:
            summary.options = scenes
            summary.selected = currentScene
        default:
            summary.min = info.map { Double($0.range.lowerBound) }
            summary.max = info.map { Double($0.range.upperBound) }
            summary.unit = info?.unit.rawValue
            summary.value = value.map(Double.init)
        }
        return summary
    }

    /// A widget on a node's output (a meter) with the value the render thread published last
    /// (`nil` while no audio runs).
    public static func summary(_ widget: Widget, output: OutputInfo?, value: Float?) -> WidgetSummary {
        WidgetSummary(kind: widget.kind.rawValue, title: widget.title, target: widget.target, unit: output?.unit.rawValue,
                      value: value.map(Double.init))
    }

    /// A patch's widgets as a daemon just started with it shows them.
    public static func widgets(_ patch: Patch) -> [WidgetSummary] {
        patch.widgets.map { widget in
            if widget.showsOutput {
                let output = patch.graph.node(widget.node).flatMap { node in
                    NodeTypes.registry.outputs(of: node.body).first { $0.name == widget.parameter }
                }
                return summary(widget, output: output, value: nil)
            }
            let info = patch.graph.node(widget.node).flatMap { NodeTypes.registry.parameters(of: $0.body) }?
                .first { $0.name == widget.parameter } ?? (widget.node == Patch.transportNode ? Patch.tempoParameter : nil)
            let state: TriggerState? = (Trigger.system + patch.triggers).first { $0.name == widget.parameter }.map {
                if case .transport = $0.action { .disabled } else { .normal }
            }
            return summary(widget, info: info, value: value(of: widget.parameter, of: widget.node, in: patch.graph, tempo: patch.tempo),
                           state: widget.kind == .button ? state : nil, scenes: patch.scenes.map(\.name), currentScene: nil)
        }
    }

    /// One line of `midihub widgets`: `slider Filter: synth.brightness -48…48 semitones = 0`.
    public static func line(_ widget: WidgetSummary) -> String {
        var text = "\(widget.kind) \(widget.title): \(widget.target)"
        if let min = widget.min, let max = widget.max { text += " \(format(min))…\(format(max))" }
        if let unit = widget.unit, unit != "generic" { text += " \(unit)" }
        if let value = widget.value { text += " = \(format(value))" }
        if let state = widget.state { text += " (\(state))" }
        if let options = widget.options { text += " [" + options.map { $0 == widget.selected ? "*\($0)" : $0 }.joined(separator: ", ") + "]" }
        return text
    }

    /// A parameter's value as `graph` keeps it, else its type's default; the tempo for the transport.
    public static func value(of parameter: String, of id: NodeID, in graph: HubGraph, tempo: Double) -> Float? {
        graph.value(of: parameter, of: id, registry: NodeTypes.registry, tempo: tempo)
    }

    /// One line of `midihub mappings`: `cc 74 on channel 1 from knobs (absolute) → synth.brightness −36…36 = 0`.
    public static func line(_ mapping: MappingSummary) -> String {
        var source = mapping.control
        if let channel = mapping.channel { source += " on channel \(channel)" }
        if let from = mapping.from { source += " from \(from)" }
        var how = mapping.encoding.map { "\(mapping.mode) \($0)" } ?? mapping.mode
        if mapping.pickup != "jump" { how += ", \(mapping.pickup)" }
        if mapping.pass { how += ", passes" }
        let targets = mapping.targets.map { target in
            let value = target.value.map { " = \(format($0))" } ?? ""
            let span = target.values.map { $0.map(format).joined(separator: "|") } ?? "\(format(target.low))…\(format(target.high))"
            return "\(target.node).\(target.parameter) \(span)\(target.curve == "linear" ? "" : " \(target.curve)")"
                + (target.invert ? " inverted" : "") + value
        }
        return "\(source) (\(how)) → " + targets.joined(separator: ", ")
    }

    private static func format(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e9 ? String(Int(value)) : String((value * 1000).rounded() / 1000)
    }
}
