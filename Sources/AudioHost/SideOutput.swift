import RenderCore

/// A place the graph plays to beside the main output — another sound card (`AudioOutputFeed`)
/// or, in JACK, a pair of output ports of its own (`JackOutputNode`): what is routed to its
/// output nodes is summed into its `renderNode`.
///
/// - Thread: control (`stop`); the render node's `process` on render.
public protocol SideOutput: AnyObject, Sendable {
    /// The render node the output's routes are summed into.
    /// - Thread: any.
    var renderNode: any Node { get }
    /// Lets the device or the ports go (it may wait: a device in a stall).
    /// - Thread: control.
    func stop()
}

extension AudioOutputFeed: SideOutput {
    /// - Thread: any.
    public var renderNode: any Node { node }
}
