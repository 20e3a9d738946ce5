internal import CLilv
import Synchronization

/// Where a hosted plugin's `log` lines go: the daemon's log (or standard error), each line
/// prefixed with the plugin's name. A line logged from `run()` is not written there (no I/O
/// on the render thread): it is counted, and the count is reported when the plugin next
/// logs off that thread or is freed.
///
/// - Thread: any: `receive` on the thread the plugin logs from; `rendering` set by the render thread.
final class PluginLog: @unchecked Sendable {
    private let name: String
    private let report: @Sendable (String) -> Void
    private let errorType: LV2_URID, warningType: LV2_URID
    /// Set by the render thread around the plugin's `run()`.
    nonisolated(unsafe) var rendering = false
    private let unwritten = Atomic<Int>(0)

    /// - Thread: control.
    init(name: String, urids: URIDMap, report: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.report = report
        errorType = urids.id(of: LV2Vocabulary.logError)
        warningType = urids.id(of: LV2Vocabulary.logWarning)
    }

    deinit { reportUnwritten() }

    /// A line the plugin logged (`type`: its `log:Error`, `Warning`, … URID).
    /// - Thread: the plugin's (render: counted only).
    func receive(_ line: UnsafePointer<CChar>, type: LV2_URID) {
        guard !rendering else {
            unwritten.add(1, ordering: .relaxed)
            return
        }
        reportUnwritten()
        let level = type == errorType ? "error: " : type == warningType ? "warning: " : ""
        let text = String(cString: line).trimmingSuffix("\n")
        report("plugin '\(name)': \(level)\(text)")
    }

    private func reportUnwritten() {
        let count = unwritten.exchange(0, ordering: .relaxed)
        guard count > 0 else { return }
        report("plugin '\(name)': \(count) log line(s) written while rendering were left out (no I/O on the render thread)")
    }
}

extension String {
    /// The text without trailing `suffix` characters.
    fileprivate func trimmingSuffix(_ suffix: Character) -> String {
        var text = self
        while text.last == suffix { text.removeLast() }
        return text
    }
}
