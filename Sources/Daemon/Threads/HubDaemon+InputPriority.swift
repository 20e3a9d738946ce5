import ALSA
import Glibc

/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// The MIDI input thread's `SCHED_FIFO` priority: below the render thread's
    /// (`PCMRealtimePriority.defaultPriority`), above every normal thread.
    static let inputPriority: Int32 = PCMRealtimePriority.defaultPriority - 10

    /// Asks realtime priority for the MIDI input thread (when the options allow realtime),
    /// so a busy machine cannot hold it off while the kernel's input FIFO fills: a FIFO that
    /// overflows is emptied by the kernel, losing up to 2000 events at once. The thread
    /// sleeps in `poll` whenever nothing is pending, and the kernel's realtime throttling
    /// leaves other threads their share even under a flood. Logs the outcome once.
    /// - Thread: owner (the MIDI input thread), at its start.
    func requestInputPriority() {
        guard options.driverOptions.realtimePriority else { return }
        switch PCMRealtimePriority.requestForCurrentThread(priority: Self.inputPriority) {
        case .granted(let priority):
            log.info("MIDI input thread: realtime priority \(priority) (SCHED_FIFO)")
        case .denied:
            log.info("MIDI input thread: normal priority (realtime not permitted)")
        }
    }
}
