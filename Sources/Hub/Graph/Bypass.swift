import RenderCore

extension ParameterInfo {
    /// The host's `bypass` parameter, which every effect and music effect has beside its own
    /// (docs/patch-format.md#bypass): at 1 its audio input is heard in its place, crossfaded
    /// as any rewiring; the effect goes on processing, so its tail is there when it comes back.
    /// Its id is outside any node's own.
    public static let bypass = ParameterInfo(id: UInt32.max, name: "bypass", range: 0...1, defaultValue: 0, unit: .boolean)
}

extension NodeKind {
    /// Whether nodes of this kind take the host's `bypass`: those that process audio in place.
    /// - Thread: any.
    public var canBypass: Bool { self == .effect || self == .musicEffect }
}
