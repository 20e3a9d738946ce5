import MIDICore
import ALSA
import Glibc
import RenderCore
import Synchronization

/// A sound card the graph plays to beside the main one — a second card, a loopback. The
/// program sums what is routed to it into its `node`, which hands each block to a ring; a
/// writer thread of its own plays the ring to the device, so the render thread never waits
/// on a second device. The main card's clock paces the render thread and this device's
/// clock the writer: when they drift apart the writer drops what piles up beyond a few
/// periods, or plays silence when the ring runs dry for a period. While the device cannot
/// be opened or fails (unplugged, busy, another rate), it reports one line and tries again
/// every second; the rest of the graph plays on.
///
/// - Thread: control: `init` and `stop` on control; the node on render; the writer on its own thread.
public final class AudioOutputFeed: @unchecked Sendable {
    public let device: String
    /// The render node the output's routes are summed into.
    public let node: OutputFeedNode
    private var thread: DeviceThread?

    /// Starts writing to `device` at `format`'s rate in periods of its block size.
    /// - Parameter report: called (on the writer thread) with a line to log when the
    ///   device fails or comes back.
    /// - Thread: control (allocates; the device is opened on the writer thread).
    public init(device: String, format: RenderFormat, alsaConfiguration: String? = nil,
                report: @escaping @Sendable (String) -> Void) {
        self.device = device
        let period = min(max(format.maxFrames, PCMConfiguration.periodFramesRange.lowerBound),
                         PCMConfiguration.periodFramesRange.upperBound)
        node = OutputFeedNode(capacity: 16 * period)
        let configuration = PCMConfiguration(sampleRate: Int(format.sampleRate), channels: 2, periodFrames: period)
        let node = node
        thread = DeviceThread(role: "audio output '\(device)'", recovered: "playing",
                              describe: { "audio output: " + Self.describe($0, device: device) }, report: report) {
            running, opened throws(PCMError) in
            let pcm = try PCMDevice(name: device, configuration: configuration, alsaConfiguration: alsaConfiguration)
            defer { pcm.close() }
            guard pcm.settings.sampleRate == configuration.sampleRate else {
                throw .invalidOption("audio output '\(device)' runs at \(pcm.settings.sampleRate) Hz, the hub at "
                                     + "\(configuration.sampleRate) Hz; use a 'plughw:' device, which converts")
            }
            opened()
            try Self.play(node, to: pcm, period: period, running: running)
        }
    }

    /// Stops the writer and waits for it (at most a retry's wait or a write's stall).
    /// - Thread: control.
    public func stop() {
        thread?.stop()
        thread = nil
    }

    deinit { stop() }

    /// Frames the render thread could not hand over (the writer fell more than the ring behind).
    /// - Thread: any.
    public var droppedFrames: Int { node.ring.droppedCount }

    /// What went wrong, with the fix for an output a patch names.
    private static func describe(_ error: PCMError, device: String) -> String {
        switch error {
        case .unknownDevice(_, let cause):
            "no playback device '\(device)' (\(cause.function): \(cause.message)); name one `aplay -L` lists in the node's `output:`"
        case .deviceBusy(_, let cause):
            "playback device '\(device)' is busy (\(cause.function): \(cause.message)); close the program playing to it"
        default:
            "\(error)"
        }
    }

    /// Plays the ring to `pcm` a period at a time (the write blocks while the device is
    /// full: its clock paces the loop) until `running` is cleared, following the main
    /// card's clock (`DriftFollower`). Starts once the ring holds three periods (dropping
    /// what it held before); a ring run dry plays its last frames, then silence, and starts
    /// again the same way; one piled far beyond the target (a stall) drops to it.
    private static func play(_ node: OutputFeedNode, to pcm: PCMDevice, period: Int,
                             running: DeviceThread.RunningFlag) throws(PCMError) {
        let ring = node.ring
        let channels = pcm.settings.channels
        let samples = UnsafeMutablePointer<Float>.allocate(capacity: period * channels)
        defer { samples.deallocate() }
        let periodMicroseconds = UInt32(Double(period) / Double(pcm.settings.sampleRate) * 1e6)
        var follower = DriftFollower(period: period, sampleRate: pcm.settings.sampleRate)
        let target = Int(follower.target)
        discard(ring.count, from: ring)
        var primed = false
        var waited: UInt32 = 0
        while running.isSet {
            let available = ring.count
            if available > 8 * period { discard(available - target, from: ring) }
            if !primed {
                primed = available >= target + period
                guard primed else {
                    // A period without enough sound plays a period of silence, which keeps the device going.
                    guard waited >= periodMicroseconds else {
                        usleep(periodMicroseconds / 4)
                        waited += periodMicroseconds / 4
                        continue
                    }
                    waited = 0
                    samples.initialize(repeating: 0, count: period * channels)
                    try pcm.write(frames: UnsafeBufferPointer(start: samples, count: period * channels))
                    continue
                }
                follower.restart()
            }
            waited = 0
            follower.observe(fill: node.smoothedFill(block: period, sampleRate: pcm.settings.sampleRate))
            if follower.render(into: samples, frames: period, channels: channels, next: { ring.pop() }) > 0 {
                primed = false  // ran dry: silence after its last frames, then wait for the target again
            }
            try pcm.write(frames: UnsafeBufferPointer(start: samples, count: period * channels))
        }
    }

    private static func discard(_ count: Int, from ring: SPSCRing<StereoFrame>) {
        var left = count
        while left > 0, ring.pop() != nil { left -= 1 }
    }
}

/// The render node an `AudioOutputFeed`'s routes are summed into (an effect: the program
/// hands it the sum of its inputs); it pushes each block into the feed's ring and leaves
/// the sound as it is. A full ring drops and counts.
///
/// - Thread: control, but `process` on render; the rest on control.
public final class OutputFeedNode: Node, @unchecked Sendable {
    public let descriptor = NodeDescriptor(kind: .effect, subtype: "aout", manufacturer: "mhub", name: "audio output", version: 1)
    public let parameters: [ParameterInfo] = []
    public let outputs: [OutputInfo] = []
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?
    let ring: SPSCRing<StereoFrame>
    /// When the last block was handed over (`HostTime.nanoseconds`), stored before it
    /// is published: the writer tells from it how far the render thread is into the next.
    let lastHandover = Atomic<Int64>(0)

    init(capacity: Int) {
        ring = SPSCRing(minimumCapacity: capacity)
    }

    /// Notes `format`; the feed's ring was allocated in `init`.
    /// - Thread: control (never while the node is in a running program).
    public func prepare(format: RenderFormat) { preparedFormat = format }

    /// Pushes the block into the feed's ring (one publish a block) and leaves the bus as it is.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        let bus = context.bus
        for i in 0..<context.frames { ring.stage(StereoFrame(left: bus.left[i], right: bus.right[i])) }
        lastHandover.store(HostTime.now().nanoseconds, ordering: .releasing)
        ring.publish()  // once a block: one atomic store, not one a frame
    }

    /// How full the ring is as if the render thread handed frames over one by one as it
    /// plays them, not a block at once: the frames waiting, less the block's part yet to
    /// come (`block` frames over `block` frames' time from the last handover). A writer that
    /// steered by the bare count would see it jump by a block as the two clocks' blocks slide
    /// past each other, and move the pitch with it.
    /// - Thread: control (the writer thread).
    func smoothedFill(block: Int, sampleRate: Int) -> Double {
        while true {
            let handed = lastHandover.load(ordering: .acquiring)
            let count = ring.count
            let now = HostTime.now()
            guard lastHandover.load(ordering: .acquiring) == handed else { continue }  // a block came meanwhile
            let since = max(now - HostTime(nanoseconds: handed), .zero).seconds
            return DriftFollower.fill(waiting: count, secondsSinceHandover: since, block: block, sampleRate: sampleRate)
        }
    }
}
