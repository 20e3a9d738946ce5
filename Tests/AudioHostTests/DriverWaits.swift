import AudioHost
import TestSupport

/// Waits on a running `AudioDriver` with a deadline (a hang guard, not a speed check).
extension AudioDriver {
    /// Waits until `condition` holds; at the deadline stops the driver (itself under a
    /// deadline) and throws `DeadlinePassed` with `message`.
    func waitUntil(_ condition: () throws -> Bool, pollMicroseconds: UInt32 = 1_000,
                   message: @autoclosure () -> String) throws {
        do {
            try TestSupport.waitUntil(pollMicroseconds: pollMicroseconds, condition, message: message())
        } catch {
            try? stopWithDeadline()
            throw error
        }
    }

    /// `stop()`, which waits for the render thread to end, failing instead of hanging when it
    /// never does.
    func stopWithDeadline() throws {
        try onThread(message: "AudioDriver.stop() did not return: the render thread never ended") { try self.stop() }
    }
}
