import Foundation

/// Whether and how plugin nodes run in child processes of their own (docs/plugins.md,
/// "Isolated plugins"): `serve --isolate-plugins` and a node's `isolate:`.
/// - Thread: any (a plain value).
public struct PluginIsolation: Sendable {
    /// Whether a plugin node with no `isolate:` of its own is isolated.
    public var byDefault: Bool
    /// The `midihub` executable the children run (`midihub plugin-child`): this process's own.
    public var executable: String
    /// The share of a block the render thread waits for the isolated nodes of that block, together.
    public var deadlineShare: Double
    /// How long a child may leave a block unanswered before it is taken for hung and killed.
    public var hangSeconds: Double
    /// How many times in a row a child that ended soon after it started is started again.
    public var maximumRestarts: Int

    public init(byDefault: Bool = false, executable: String = PluginIsolation.ownExecutable, deadlineShare: Double = 0.5,
                hangSeconds: Double = 0.5, maximumRestarts: Int = 5) {
        self.byDefault = byDefault
        self.executable = executable
        self.deadlineShare = deadlineShare
        self.hangSeconds = hangSeconds
        self.maximumRestarts = maximumRestarts
    }
}

extension PluginIsolation {
    /// This process's executable, by its path (so that the child is `midihub plugin-child` in
    /// `ps`, not `exe`).
    public static var ownExecutable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? "/proc/self/exe"
    }
}

/// What an isolated node tells of its child (`InstalledPlugins.onChildEvent`).
/// - Thread: any (a plain value).
public enum PluginChildEvent: Sendable, Equatable {
    /// The child ended: killed by `signal` (its name, `SIGSEGV`), or exited with `status`.
    case crashed(signal: String?, status: Int32?)
    /// The child left a block unanswered longer than `PluginIsolation.hangSeconds`; it was killed.
    case hung
    /// A new child runs the plugin again, with the node's last state and values.
    case restarted(after: Double)
    /// The child ended `tries` times in a row soon after it started: the node stays silent.
    case gaveUp(tries: Int)
}

/// The render thread's budget for waiting on isolated nodes within one block: the first
/// isolated node of a block sets the deadline (its start plus the share of the block), and
/// every isolated node of that block waits until that one instant at most, so however many
/// there are, the block is never later than the share because of them.
/// - Thread: render.
final class IsolationBudget: @unchecked Sendable {
    private var block: Int64 = -1
    private var deadline: Int64 = 0

    /// The deadline (monotonic ns) of the block at `samplePosition` of `frames` at `sampleRate`.
    func deadline(samplePosition: Int64, frames: Int, sampleRate: Double, share: Double, now: Int64) -> Int64 {
        if samplePosition != block {
            block = samplePosition
            deadline = now + Int64(Double(frames) / sampleRate * share * 1e9)
        }
        return deadline
    }
}
