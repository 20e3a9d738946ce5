import Dispatch
import Glibc
import Sequencer
import Synchronization

/// Records what an `AudioDriver` plays to a WAV file while it plays: the render thread fills
/// the driver's `AudioTap`, a writer thread of the recorder's own drains it to the file every
/// 20 ms, so the disk never holds up the render thread. The file is written under a temporary
/// name and renamed into place when the recording stops (never half-written).
///
/// - Thread: control: `start` and `stop` on control (they open, finish and rename the file).
public final class AudioRecorder: @unchecked Sendable {
    /// What a recording came to.
    ///
    /// - Thread: any (a plain value).
    public struct Summary: Sendable {
        public var path: String
        public var seconds: Double
        /// Frames lost because the writer fell behind (a disk stalled for seconds).
        public var droppedFrames: Int
    }

    private let tap: AudioTap
    private let sampleRate: Int
    private var writer: WAVFileWriter
    private var thread: JoinableThread?
    private let stopping = Atomic<Bool>(false)
    private var frames = 0
    private var failure: (any Error)?
    private let droppedAtStart: Int

    /// Opens `path` (a temporary file beside it) and starts recording what `driver` plays.
    /// - Throws: `WAVWriteError` naming the path and the fix; `RenderThreadError`.
    /// - Thread: control (opens the file and starts the writer thread).
    public init(driver: AudioDriver, path: String, format: WAVSampleFormat = .s16) throws {
        tap = driver.tap
        sampleRate = driver.settings.sampleRate
        writer = try WAVFileWriter(path: path, format: format, sampleRate: sampleRate)
        droppedAtStart = tap.droppedFrames
        while tap.ring.pop() != nil {}  // what an earlier recording left
        tap.arm()
        thread = try JoinableThread(name: "midihub-record") { [self] in drain() }
    }

    /// The file being written.
    /// - Thread: control.
    public var path: String { writer.path }

    /// Stops recording, writes the rest and renames the file into place.
    /// - Throws: the write's error (the temporary file is removed).
    /// - Thread: control (joins the writer thread, finishes and renames the file).
    public func stop() throws -> Summary {
        tap.disarm()
        stopping.store(true, ordering: .releasing)
        thread?.join()
        thread = nil
        if let failure {
            writer.discard()
            throw failure
        }
        try writer.finish()
        return Summary(path: writer.path, seconds: Double(frames) / Double(sampleRate),
                       droppedFrames: tap.droppedFrames - droppedAtStart)
    }

    /// The writer thread: drains the tap every 20 ms until stopped and emptied.
    private func drain() {
        let capacity = 4096
        let left = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
        defer {
            left.deallocate()
            right.deallocate()
        }
        while true {
            let last = stopping.load(ordering: .acquiring)
            var count = 0
            while let frame = tap.ring.pop() {
                left[count] = frame.left
                right[count] = frame.right
                count += 1
                if count == capacity { write(left, right, count); count = 0 }
            }
            if count > 0 { write(left, right, count) }
            if last || failure != nil { return }
            usleep(20_000)
        }
    }

    private func write(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>, _ count: Int) {
        guard failure == nil else { return }
        do {
            try writer.write(left: left, right: right, frames: count)
            frames += count
        } catch {
            failure = error
            tap.disarm()
        }
    }
}
