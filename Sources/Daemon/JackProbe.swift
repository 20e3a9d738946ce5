import Foundation
import RtMidiBackend
import Synchronization

/// Looks for a JACK server every `interval` seconds on a thread of its own, while the
/// daemon has none. A probe opens a throwaway libjack client, and even without a server
/// that takes milliseconds (3.6 ms on a desktop, far more in a VM): on the MIDI input
/// thread, which owns the state, MIDI queued up behind it once a second and the
/// kernel's input FIFO overflowed.
///
/// libjack's client opens never overlap: an `.available` answer pauses the probing, so
/// the input thread opens the bridge's clients while this thread is idle, and the probing
/// resumes only when the bridge asks (`resume`: the server went away, or opening failed).
///
/// - Thread: `start` and `stop` on the main thread; `take` and `resume` on the MIDI input
///   thread (the state's owner); the probing on the "midihub-jack-probe" thread.
final class JackProbe: Sendable {
    private struct State {
        /// Whether the thread should probe (false after an `.available` answer).
        var probing = true
        /// The newest answer not taken yet.
        var answer: JackAvailability?
    }

    private let state = Mutex(State())
    private let stopping = Atomic<Bool>(false)
    private let running = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let interval: Double

    /// - Parameter interval: seconds between two probes.
    init(interval: Double) {
        self.interval = interval
    }

    /// Starts the thread; it probes one interval from now, and only when `probing`.
    /// - Thread: main.
    func start(probing: Bool) {
        state.withLock { $0.probing = probing }
        guard !running.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            defer { finished.signal() }
            while sleepUnlessStopped(interval) {
                guard state.withLock({ $0.probing }) else { continue }
                let availability = JackAvailability.probe()
                state.withLock { state in
                    state.answer = availability
                    if availability == .available { state.probing = false }
                }
            }
        }
        thread.name = "midihub-jack-probe"
        thread.start()
    }

    /// Stops the thread and waits for it (at most one probe plus 0.1 s).
    /// - Thread: main.
    func stop() {
        guard running.load(ordering: .acquiring) else { return }
        stopping.store(true, ordering: .releasing)
        finished.wait()
    }

    /// The newest answer not taken yet, or `nil`. After an `.available` answer the thread
    /// probes no more until `resume`.
    /// - Thread: MIDI input.
    func take() -> JackAvailability? {
        state.withLock { state in
            defer { state.answer = nil }
            return state.answer
        }
    }

    /// Looks for a server again (it went away, or the bridge could not open its clients).
    /// - Thread: MIDI input.
    func resume() {
        state.withLock { $0.probing = true }
    }

    /// Sleeps `seconds` in steps of at most 0.1 s.
    /// - Returns: false once `stop` was called.
    private func sleepUnlessStopped(_ seconds: Double) -> Bool {
        var left = seconds
        while left > 0 {
            if stopping.load(ordering: .acquiring) { return false }
            Thread.sleep(forTimeInterval: min(left, 0.1))
            left -= 0.1
        }
        return !stopping.load(ordering: .acquiring)
    }
}
