internal import CPluginChild
import Glibc
import RenderCore

/// The shared memory an isolated plugin node and its child process render through, one
/// block at a time: the block's stereo bus (in, then out, in place), its events with their
/// frames, the host's position, the plugin's control outputs, and two futex words — the
/// parent raises `request` and wakes the child; the child renders and sets `response` to
/// the same number and wakes the parent.
///
/// Layout (bytes): the words on cache lines of their own, then the header, then the left
/// and right channels (`maxFrames` floats each), then `eventCapacity` events.
///
/// - Thread: any (the mapping); `request` written by the parent's render thread, the rest of
///   a block by whichever side the futex words say holds it.
struct IsolationRegion: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let bytes: Int
    let maxFrames: Int
    let eventCapacity: Int

    private static let requestOffset = 0, responseOffset = 64, framesOffset = 128, eventCountOffset = 132
    private static let channelsOffset = 136, droppedOffset = 140, hostOffset = 192, outputsOffset = 448, audioOffset = 1024

    /// The size of a region for blocks of up to `maxFrames` and `eventCapacity` events.
    static func size(maxFrames: Int, eventCapacity: Int) -> Int {
        let events = audioOffset + 2 * maxFrames * MemoryLayout<Float>.stride
        let end = events + eventCapacity * MemoryLayout<RenderEvent>.stride
        return (end + 4095) & ~4095
    }

    /// Maps `descriptor` (a memfd `size(maxFrames:eventCapacity:)` long), shared; nil when it cannot.
    init?(descriptor: Int32, maxFrames: Int, eventCapacity: Int) {
        precondition(MemoryLayout<HostSync>.size <= Self.outputsOffset - Self.hostOffset)
        let bytes = Self.size(maxFrames: maxFrames, eventCapacity: eventCapacity)
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0), mapped != MAP_FAILED else { return nil }
        (base, self.bytes, self.maxFrames, self.eventCapacity) = (mapped, bytes, maxFrames, eventCapacity)
    }

    func unmap() { munmap(base, bytes) }

    var request: UnsafeMutablePointer<UInt32> { (base + Self.requestOffset).assumingMemoryBound(to: UInt32.self) }
    var response: UnsafeMutablePointer<UInt32> { (base + Self.responseOffset).assumingMemoryBound(to: UInt32.self) }
    var frames: UnsafeMutablePointer<UInt32> { (base + Self.framesOffset).assumingMemoryBound(to: UInt32.self) }
    var eventCount: UnsafeMutablePointer<UInt32> { (base + Self.eventCountOffset).assumingMemoryBound(to: UInt32.self) }
    var channelCount: UnsafeMutablePointer<UInt32> { (base + Self.channelsOffset).assumingMemoryBound(to: UInt32.self) }
    /// Events the child's plugin could not take (its atom buffer was full), in all.
    var dropped: UnsafeMutablePointer<UInt32> { (base + Self.droppedOffset).assumingMemoryBound(to: UInt32.self) }
    var host: UnsafeMutablePointer<HostSync> { (base + Self.hostOffset).assumingMemoryBound(to: HostSync.self) }
    var outputs: UnsafeMutablePointer<Float> { (base + Self.outputsOffset).assumingMemoryBound(to: Float.self) }
    var left: UnsafeMutablePointer<Float> { (base + Self.audioOffset).assumingMemoryBound(to: Float.self) }
    var right: UnsafeMutablePointer<Float> { left + maxFrames }
    var events: UnsafeMutablePointer<RenderEvent> {
        (base + Self.audioOffset + 2 * maxFrames * MemoryLayout<Float>.stride).assumingMemoryBound(to: RenderEvent.self)
    }
}
