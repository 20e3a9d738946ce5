import RenderCore

/// Smoothed values of a node's parameters, indexed by parameter id (ids are 0…count-1).
/// Storage is allocated once in `init`; `set` and `next` never allocate.
///
/// - Thread: render, but `init` on control; everything else on render.
final class NodeParameterValues {
    let infos: [ParameterInfo]
    private let values: UnsafeMutablePointer<SmoothedValue>

    /// - Thread: control.
    init(_ infos: [ParameterInfo]) {
        self.infos = infos
        values = .allocate(capacity: infos.count)
        for (index, info) in infos.enumerated() {
            precondition(Int(info.id) == index, "parameter ids must be 0…count-1 in order")
            (values + index).initialize(to: SmoothedValue(info.defaultValue))
        }
    }

    deinit { values.deallocate() }

    /// Sets the ramp length and jumps every value to its target.
    /// - Thread: control (from the node's `prepare`).
    func prepare(rampFrames: Int) {
        for index in infos.indices {
            values[index].rampFrames = rampFrames
            values[index].reset(values[index].target)
        }
    }

    /// Jumps every value to its target (when nothing sounds, a glide would be wasted work).
    func settle() {
        for index in infos.indices where values[index].isRamping { values[index].reset(values[index].target) }
    }

    /// Applies a `.parameter` event (unknown ids and non-finite values are ignored).
    func apply(_ event: RenderEvent) {
        let index = Int(event.parameter)
        guard event.kind == .parameter, index < infos.count, event.value.isFinite else { return }
        values[index].set(infos[index].clamp(event.value))
    }

    /// Whether any value is still moving toward its target.
    var isRamping: Bool {
        for index in infos.indices where values[index].isRamping { return true }
        return false
    }

    /// The current value without advancing.
    @inline(__always)
    func current(_ id: some RawRepresentable<UInt32>) -> Float { values[Int(id.rawValue)].current }

    /// The target value (for discrete settings such as switches).
    @inline(__always)
    func target(_ id: some RawRepresentable<UInt32>) -> Float { values[Int(id.rawValue)].target }

    /// Advances `frames` frames and returns the value reached.
    @inline(__always)
    func advance(_ id: some RawRepresentable<UInt32>, frames: Int) -> Float { values[Int(id.rawValue)].advance(frames) }
}
