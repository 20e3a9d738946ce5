import Glibc

/// Names threads for `ps -L`, `top -H`, `chrt -p` and `/proc/PID/task/TID/comm`
/// (Foundation's `Thread.name` does not reach the kernel on Linux, and Glibc's module has no
/// `pthread_setname_np`).
///
/// - Thread: any.
public enum ThreadName {
    /// Names the calling thread: writes `/proc/thread-self/comm`, which keeps 15 bytes.
    /// Nothing happens where that file cannot be written.
    /// - Thread: any (the thread to name, at its start: it opens a file).
    public static func setForCurrentThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        _ = name.utf8CString.withUnsafeBufferPointer { write(descriptor, $0.baseAddress, min($0.count - 1, 15)) }
    }
}
