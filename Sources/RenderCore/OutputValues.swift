import Synchronization

/// Output values of one node, written by the render thread and read by the control side
/// without locks. Holds up to `OutputValues.capacity` floats, indexed by output id.
///
/// - Thread: any: `store` on render, `load` from any thread.
public final class OutputValues: @unchecked Sendable {
    public static let capacity = 8
    @usableFromInline let bits: InlineArray<8, Atomic<UInt32>> = InlineArray { _ in Atomic(0) }

    /// Every output at 0.
    /// - Thread: control (allocates).
    public init() {}

    /// - Thread: render.
    @inlinable
    public func store(_ value: Float, at id: Int) {
        bits[id].store(value.bitPattern, ordering: .relaxed)
    }

    /// - Thread: any.
    @inlinable
    public func load(_ id: Int) -> Float {
        Float(bitPattern: bits[id].load(ordering: .relaxed))
    }
}
