import Hub
import MIDICore
import RenderCore
import Sequencer

/// Where a song routed offline leaves the graph (`PatchRendering`): what reaches a render
/// node becomes a render event for it at the exact frame of its time (the song's clock, frame
/// 0 at `HostTime.zero`), as the daemon's sink schedules the transport's events on the render
/// thread's clock. Other apps' ports get nothing: they cannot play offline.
///
/// - Thread: control (the song is routed before the render starts).
struct SequenceSink: RouteSink {
    /// The render id of each node of the graph, by its index there (`nil`: not rendered).
    let renderIDs: [UInt16?]
    let timeBase: TimeBase
    /// What reached the render nodes, in the order it arrived.
    private(set) var entries: [RenderSchedule.Entry] = []

    /// The moment of `frame` on the song's clock (the time a message of that frame is routed at).
    /// - Thread: any.
    func time(at frame: FramePosition) -> HostTime {
        .zero + timeBase.duration(at: frame)
    }

    /// - Thread: control.
    mutating func deliver(_ event: TimedMIDI, to target: RouteTarget) {
        guard target.isUnit, let renderID = renderIDs[target.index],
              let rendered = RenderEvent(event.message, node: renderID) else { return }
        entries.append(RenderSchedule.Entry(frame: timeBase.nearestFrame(after: event.time - .zero), event: rendered))
    }
}
