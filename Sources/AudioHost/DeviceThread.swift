import ALSA
import Glibc
import Synchronization

/// The thread that keeps one audio device going beside the render thread — an audio
/// input's capture device, another sound card an output plays to — so that the render
/// thread never waits on it. It runs a session (open the device, move audio until told to
/// stop); when the device cannot be opened or fails (unplugged, busy, another rate), it
/// reports one line and tries again every second, and says when the device works again.
///
/// - Thread: control: `init` and `stop` on control; the session on the device thread.
final class DeviceThread: @unchecked Sendable {
    /// Cleared to end the session (a class, so the device thread can hold it).
    final class RunningFlag: Sendable {
        private let value = Atomic<Bool>(true)
        /// - Thread: any.
        var isSet: Bool { value.load(ordering: .relaxed) }
        fileprivate func clear() { value.store(false, ordering: .relaxed) }
    }

    private let running = RunningFlag()
    private var thread: JoinableThread?

    /// Starts the device thread.
    /// - Parameters:
    ///   - role: how the reports name the device, e.g. `audio input 'hw:1,0'`.
    ///   - recovered: what the device does again, for the report once it works (`capturing`).
    ///   - describe: the line for a failure, with its fix.
    ///   - report: called on the device thread with a line to log.
    ///   - session: opens the device and moves audio while `running` is set; calls its second
    ///     argument once the device is open.
    init(role: String, recovered: String, describe: @escaping @Sendable (PCMError) -> String,
         report: @escaping @Sendable (String) -> Void,
         session: @escaping @Sendable (RunningFlag, _ opened: () -> Void) throws(PCMError) -> Void) {
        let running = running
        do throws(RenderThreadError) {
            thread = try JoinableThread(name: "midihub-audio-io") {
                var failing = false
                while running.isSet {
                    do throws(PCMError) {
                        try session(running) {
                            if failing { report("\(role): \(recovered) again") }
                            failing = false
                        }
                    } catch {
                        if !failing { report(describe(error)) }
                        failing = true
                        for _ in 0..<10 where running.isSet { usleep(100_000) }
                    }
                }
            }
        } catch {
            report("\(role): cannot start its thread (pthread_create: \(String(cString: strerror(error.code)))); "
                   + "free some threads or processes, then load the patch again")
        }
    }

    /// Ends the session and waits for it (at most a retry's wait or a device's timeout).
    /// - Thread: control.
    func stop() {
        running.clear()
        thread?.join()
        thread = nil
    }

    deinit { stop() }
}
