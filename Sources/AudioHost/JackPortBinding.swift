import CJack
import Synchronization

/// A node's two ports (`NAME-left`, `NAME-right`) on one of the hub's JACK clients, the one
/// of `generation` (0: none). `JackAudioPorts`' queue writes the ports before the generation;
/// the render thread reads the generation first.
///
/// - Thread: control (the ports' queue) writes; render reads.
final class JackPortBinding: @unchecked Sendable {
    let generation = Atomic<Int>(0)
    private let left = Atomic<Int>(0)
    private let right = Atomic<Int>(0)
    /// Their full names, for connecting (the queue's own).
    private(set) var portNames: (left: String, right: String)?

    /// - Thread: any.
    var ports: (left: OpaquePointer, right: OpaquePointer)? {
        guard let left = OpaquePointer(bitPattern: left.load(ordering: .relaxed)),
              let right = OpaquePointer(bitPattern: right.load(ordering: .relaxed)) else { return nil }
        return (left, right)
    }

    /// - Thread: control (the queue).
    func bind(_ ports: JackAudioClient.PortPair, generation: Int) {
        left.store(Int(bitPattern: UnsafeRawPointer(ports.left)), ordering: .relaxed)
        right.store(Int(bitPattern: UnsafeRawPointer(ports.right)), ordering: .relaxed)
        portNames = (ports.leftName, ports.rightName)
        self.generation.store(generation, ordering: .releasing)
    }

    /// Unbinds; returns the ports it held.
    /// - Thread: control (the queue).
    func unbind() -> [OpaquePointer]? {
        let held = ports
        generation.store(0, ordering: .releasing)
        portNames = nil
        return held.map { [$0.left, $0.right] }
    }

    /// The render thread's own: which period the node rendered last, and where in it.
    private var period = -1
    private var cursor = 0

    /// The ports' buffers for the next block of `frames` (the node renders the period in
    /// blocks, in order), from where the block starts in the period `host` runs; nil when
    /// the ports are not on the client whose process thread runs it.
    /// - Thread: render.
    func nextBlock(of frames: Int, in host: JackAudioPorts) -> (left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>)? {
        if host.periods != period {
            period = host.periods
            cursor = 0
        }
        let start = cursor
        cursor += frames
        guard start + frames <= host.periodFrames, generation.load(ordering: .acquiring) == host.generation, host.generation != 0,
              let ports else { return nil }
        let periodFrames = jack_nframes_t(host.periodFrames)
        guard let left = jack_port_get_buffer(ports.left, periodFrames), let right = jack_port_get_buffer(ports.right, periodFrames)
        else { return nil }
        return (left.assumingMemoryBound(to: Float.self) + start, right.assumingMemoryBound(to: Float.self) + start)
    }
}
