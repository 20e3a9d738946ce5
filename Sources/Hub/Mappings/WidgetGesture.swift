import RenderCore

/// What a remote does to a widget (docs/mappings.md#widgets): moves it to a value
/// (`widgets.set`), presses it or lets it go (`widgets.press`, `widgets.release`).
///
/// - Thread: any (a plain value).
public enum WidgetGesture: Hashable, Sendable {
    case set(Double)
    case press
    case release
}

/// What a gesture on a widget does to the hub: the request the daemon already answers for
/// it (`parameters.set`, `triggers.fire`, `scenes.switch`), or nothing.
///
/// - Thread: any (a plain value).
public enum WidgetAction: Hashable, Sendable {
    case setParameter(node: NodeID, parameter: String, value: Float)
    case fireTrigger(String)
    case switchScene(String)
    /// The gesture changes nothing (a release of a button, a touch on a slider).
    case nothing
}

/// - Thread: any (a plain value).
extension Widget {
    /// What `gesture` does to this widget, given the scenes in order and, for a widget of a
    /// parameter, `parameter`: its description and its value now (asked only then):
    /// - slider, knob: `set` moves the parameter to the value clamped to its range; a press
    ///   or release (a touch beginning or ending a drag) changes nothing;
    /// - switch: `set` at or above the middle of the range → top, below → bottom; `press`
    ///   toggles it; `release` changes nothing;
    /// - momentary: `press` → top, `release` → bottom, `set` → the value, clamped;
    /// - button: `press`, or `set` above 0, fires the trigger; `release`, or `set` at or
    ///   below 0, changes nothing;
    /// - selector: `set` switches to the scene at that index (rounded); press and release
    ///   are refused;
    /// - label, meter: read only, every gesture refused.
    /// - Throws: `HubRefusal` for a read-only widget, a gesture its kind does not take, a
    ///   selector index with no scene, or what `parameter` throws.
    /// - Thread: any.
    public func action(of gesture: WidgetGesture, scenes: [String],
                       parameter: () throws(HubRefusal) -> (info: ParameterInfo, value: Float?))
        throws(HubRefusal) -> WidgetAction
    {
        func move(_ choose: (ParameterInfo, Float?) -> Float) throws(HubRefusal) -> WidgetAction {
            let (info, value) = try parameter()
            return .setParameter(node: node, parameter: self.parameter, value: choose(info, value))
        }
        switch (kind, gesture) {
        case (.label, _), (.meter, _):
            throw HubRefusal(.readOnly, "widget '\(target)' is a \(kind.rawValue): it shows a value, nothing moves it",
                             fix: "move a slider, knob, switch, momentary, button or selector ('midihub widgets' lists them)")
        case (.slider, .press), (.slider, .release), (.knob, .press), (.knob, .release), (.switch, .release),
             (.button, .release):
            return .nothing
        case (.slider, .set(let level)), (.knob, .set(let level)), (.momentary, .set(let level)):
            return try move { info, _ in info.clamp(Float(level)) }
        case (.switch, .set(let level)):
            return try move { info, _ in Float(level) >= info.middle ? info.range.upperBound : info.range.lowerBound }
        case (.switch, .press):
            return try move { info, value in
                (value ?? info.defaultValue) >= info.middle ? info.range.lowerBound : info.range.upperBound
            }
        case (.momentary, .press):
            return try move { info, _ in info.range.upperBound }
        case (.momentary, .release):
            return try move { info, _ in info.range.lowerBound }
        case (.button, .press):
            return .fireTrigger(self.parameter)
        case (.button, .set(let level)):
            return level > 0 ? .fireTrigger(self.parameter) : .nothing
        case (.selector, .set(let index)):
            let chosen = index.rounded()
            guard chosen >= 0, chosen < Double(scenes.count) else {
                throw HubRefusal(.invalidValue, "widget '\(target)' has no scene at index \(index.formatted)",
                                 fix: scenes.isEmpty ? "add scenes: to the patch (docs/mappings.md#scenes)"
                                     : "give an index from 0 to \(scenes.count - 1): "
                                       + scenes.enumerated().map { "\($0.offset) \($0.element)" }.joined(separator: ", "))
            }
            return .switchScene(scenes[Int(chosen)])
        case (.selector, .press), (.selector, .release):
            throw HubRefusal(.badParams, "widget '\(target)' is a selector: it takes widgets.set with a scene's index",
                             fix: "send widgets.set with \"value\" the index of the scene in its options")
        }
    }
}

/// - Thread: any (a plain value).
private extension ParameterInfo {
    /// Halfway between bottom and top: where a switch turns from one to the other.
    var middle: Float { (range.lowerBound + range.upperBound) / 2 }
}

/// - Thread: any (a plain value).
private extension Double {
    /// `2`, not `2.0`; `0.5` as it is.
    var formatted: String { rounded() == self ? String(Int(self)) : String(self) }
}
