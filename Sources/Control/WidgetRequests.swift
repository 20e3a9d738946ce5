/// `widgets.set` parameters: `{"widget":"synth.brightness","value":12}`. `widget` is a
/// widget's `target` as `widgets.list` shows it, else its `title`.
///
/// - Thread: any (a plain value).
public struct WidgetSetting: Hashable, Sendable, Codable {
    public var widget: String
    public var value: Double

    public init(widget: String, value: Double) {
        self.widget = widget
        self.value = value
    }
}

/// `widgets.press` and `widgets.release` parameters: `{"widget":"trigger.panic"}`.
///
/// - Thread: any (a plain value).
public struct WidgetReference: Hashable, Sendable, Codable {
    public var widget: String

    public init(widget: String) {
        self.widget = widget
    }
}
