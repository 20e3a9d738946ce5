internal import CPluginChild
import Foundation
import Hub
import RenderCore
import Synchronization

/// An LV2 plugin node whose plugin runs in a child process of its own (`midihub
/// plugin-child`), so that a plugin that crashes or hangs takes down only itself. Each block
/// goes through shared memory (`IsolationRegion`): the bus and the events are copied in, the
/// child is woken by a futex, and the render thread waits for its answer until the block's
/// deadline (`IsolationBudget`) at most. A block the child does not answer in time is silent
/// from this node (counted), and the graph's other nodes are not held up. The child's end —
/// a signal, or no answer for `PluginIsolation.hangSeconds` — is noticed by the node's
/// watcher (`PluginChildWatcher`), which starts a new child with the node's last own state and
/// control values.
///
/// - Thread: any (`prepare` on control, `process` on render, as `Node` says).
public final class IsolatedPluginNode: PluginNode, @unchecked Sendable {
    public let descriptor: NodeDescriptor
    public let parameters: [ParameterInfo]
    public let outputs: [OutputInfo]
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    let host: InstalledPlugins
    private let bundle: String
    private let layout: PluginCatalog.PortLayout
    private var watcher: PluginChildWatcher?
    /// What a new child starts with: the node's last control values and own state.
    private let memory: RestartMemory
    /// Blocks this node left silent: its child missed the deadline, or was gone.
    private let silentBlocks = Atomic<Int>(0)
    /// The render thread's: the last block's number, whether the child still owes an answer,
    /// and the child generation it was sent to.
    private var sequence: UInt32 = 0, pending = false, generation: UInt32 = 0

    /// How long the render thread looks for the child's answer before it sleeps on the futex:
    /// 30 µs where the child has a core of its own to answer on, none on one core (where the
    /// looking would only keep the child from running).
    static let spinNanoseconds: Int64 = ProcessInfo.processInfo.activeProcessorCount > 1 ? 30_000 : 0

    /// The most events one block hands the child (more are counted as dropped).
    static let eventCapacity = 2048

    /// - Thread: control.
    init(descriptor: NodeDescriptor, bundle: String, layout: PluginCatalog.PortLayout, host: InstalledPlugins) {
        self.descriptor = descriptor
        parameters = descriptor.plugin?.parameters ?? []
        outputs = descriptor.plugin?.outputs ?? []
        self.bundle = bundle
        self.layout = layout
        self.host = host
        memory = RestartMemory(defaults: layout.defaults, state: descriptor.pluginState)
    }

    deinit {
        let parts = Parts(watcher: watcher, host: host, silentReport: silentReport)
        LV2Node.releaser.async { parts.release() }
    }

    /// What a node that went leaves to stop.
    private struct Parts: @unchecked Sendable {
        let watcher: PluginChildWatcher?
        let host: InstalledPlugins
        let silentReport: String?

        func release() {
            watcher?.stop()
            if let silentReport { host.report(silentReport) }
        }
    }

    /// The control values the render thread last set (port by port) and the plugin's own
    /// state as last read: what a new child starts with. Outlives the node while its watcher runs.
    /// - Thread: any (`controls` written on render and read on the watcher's thread: single floats).
    final class RestartMemory: @unchecked Sendable {
        let controls: UnsafeMutablePointer<Float>
        let count: Int
        let state: Mutex<String?>

        init(defaults: [Float], state: String?) {
            count = max(defaults.count, 1)
            controls = .allocate(capacity: count)
            controls.initialize(repeating: 0, count: count)
            for (index, value) in defaults.enumerated() { controls[index] = value }
            self.state = Mutex(state)
        }

        deinit { controls.deallocate() }
    }

    /// Blocks this node left silent so far (its child late or gone).
    /// - Thread: any.
    public var silentBlockCount: Int { silentBlocks.load(ordering: .relaxed) }

    /// The process id of the child that runs the plugin now, or nil while none does.
    /// - Thread: any.
    public var childProcess: Int32? { watcher?.childProcess }

    private var silentReport: String? {
        let count = silentBlocks.load(ordering: .relaxed)
        guard count > 0 else { return nil }
        return "LV2 plugin '\(descriptor.name)' (isolated) was silent for \(count) block(s): its process was late or restarting"
    }

    /// Starts the child for `format` (a second `prepare` starts a new one: the plugin's state
    /// starts afresh, as an in-process node's does). A child that does not start leaves the
    /// node silent, said once in the log.
    /// - Thread: control.
    public func prepare(format: RenderFormat) {
        watcher?.stop()
        watcher = nil
        preparedFormat = format
        let (memory, uri, bundle, synchronous) = (memory, descriptor.plugin?.uri ?? "", bundle, host.synchronousWork)
        let made = PluginChildWatcher(node: self, maxFrames: format.maxFrames, eventCapacity: Self.eventCapacity) {
            PluginChildStart(uri: uri, bundle: bundle, sampleRate: format.sampleRate, maxFrames: format.maxFrames,
                             eventCapacity: Self.eventCapacity, state: memory.state.withLock { $0 },
                             controls: Array(UnsafeBufferPointer(start: memory.controls, count: memory.count)), synchronousWork: synchronous)
        }
        guard let made else {
            host.report("LV2 plugin '\(descriptor.name)' (isolated) has no shared memory for its process; its node stays silent "
                        + "(fix: check the daemon's memory limits, or set `isolate: false`)")
            return
        }
        if let refusal = made.startFirst() {
            host.report("LV2 plugin '\(descriptor.name)' (isolated) did not start: \(refusal.problem); its node stays silent (fix: \(refusal.fix))")
        }
        watcher = made
        generation = made.generation.load(ordering: .acquiring)
        sequence = midihub_load_acquire(made.region.request)
        pending = false
    }

    /// Hands the block to the child and waits for it until the block's deadline (offline:
    /// until it answers or ends); a block it does not answer in time is this node's silence.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        for event in context.events where event.kind == .parameter && Int(event.parameter) < memory.count {
            if let info = parameters.first(where: { $0.id == event.parameter }) { memory.controls[Int(event.parameter)] = info.clamp(event.value) }
        }
        guard let watcher, let format = preparedFormat else { return }
        let region = watcher.region
        let current = watcher.generation.load(ordering: .acquiring)
        if current != generation {
            (generation, pending, sequence) = (current, false, midihub_load_acquire(region.request))
        }
        guard watcher.alive.load(ordering: .acquiring) else { return silence(context) }
        if pending {
            guard midihub_load_acquire(region.response) == sequence else { return silence(context) }
            pending = false
            watcher.waitingSince.store(0, ordering: .releasing)
        }
        let frames = min(context.frames, region.maxFrames), bus = context.bus
        let stereo = bus.channelCount == 2
        region.left.update(from: bus.left, count: frames)
        region.right.update(from: stereo ? bus.right : bus.left, count: frames)
        let count = min(context.events.count, region.eventCapacity)
        if let events = context.events.baseAddress { region.events.update(from: events, count: count) }
        region.frames.pointee = UInt32(frames)
        region.eventCount.pointee = UInt32(count)
        region.channelCount.pointee = UInt32(bus.channelCount)
        region.host.pointee = context.host
        sequence &+= 1
        let sent = midihub_monotonic_nanoseconds()
        watcher.waitingSince.store(sent, ordering: .releasing)
        midihub_store_release(region.request, sequence)
        midihub_futex_wake(region.request)
        let deadline: Int64? = host.synchronousWork ? nil : host.blockBudget.deadline(
            samplePosition: context.host.samplePosition, frames: context.frames, sampleRate: format.sampleRate,
            share: host.isolation.deadlineShare, now: sent)
        guard waitForAnswer(region, watcher: watcher, deadline: deadline) else {
            pending = true
            return silence(context)
        }
        watcher.waitingSince.store(0, ordering: .releasing)
        bus.left.update(from: region.left, count: frames)
        if stereo { bus.right.update(from: region.right, count: frames) }
        for slot in 0..<min(outputs.count, OutputValues.capacity) { outputValues.store(region.outputs[slot], at: slot) }
    }

    /// Whether the child answered block `sequence` by `deadline` (none: while it lives).
    /// - Thread: render.
    private func waitForAnswer(_ region: IsolationRegion, watcher: PluginChildWatcher, deadline: Int64?) -> Bool {
        // Most plugins answer within a few microseconds of waking: looked for before sleeping,
        // which would add a wake-up of this thread to the child's.
        let spinUntil = min(midihub_monotonic_nanoseconds() + Self.spinNanoseconds, deadline ?? .max)
        while midihub_monotonic_nanoseconds() < spinUntil {
            if midihub_load_acquire(region.response) == sequence { return true }
        }
        while true {
            let answered = midihub_load_acquire(region.response)
            if answered == sequence { return true }
            // Its watcher wakes this wait when the child ends.
            guard watcher.alive.load(ordering: .acquiring) else { return false }
            var wait: Int64 = 20_000_000
            if let deadline {
                wait = deadline - midihub_monotonic_nanoseconds()
                guard wait > 0 else { return false }
            }
            _ = midihub_futex_wait(region.response, answered, wait)
        }
    }

    /// This node's part of a block it has no answer for: nothing added (an instrument or a
    /// generator), silence in place of its input (an effect).
    /// - Thread: render.
    private func silence(_ context: ProcessContext) {
        silentBlocks.add(1, ordering: .relaxed)
        guard descriptor.kind == .effect || descriptor.kind == .musicEffect else { return }
        context.bus.clear(frames: context.frames)
    }

    public var isRunning: Bool { watcher?.alive.load(ordering: .acquiring) ?? false }

    public func ownState(files: String?) -> String? {
        guard let reply = watcher?.ask(.state(files: files)), reply.problem == nil else { return nil }
        memory.state.withLock { $0 = reply.text }
        return reply.text
    }

    public func setFile(_ name: String, to path: String) throws(PluginRefusal) {
        _ = try answer(to: .setFile(name: name, path: path))
    }

    public func savePreset(label: String, values: [String: Float], in directory: String) throws(PluginRefusal) -> SavedPreset {
        let reply = try answer(to: .savePreset(label: label, values: values, directory: directory))
        guard let fields = reply.preset, fields.count == 3 else {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' (isolated) gave no preset back", fix: "try again")
        }
        host.loadBundle(fields[2])
        return SavedPreset(uri: fields[0], label: fields[1], bundle: fields[2])
    }

    /// The child's reply to `request`, or its refusal.
    private func answer(to request: PluginChildRequest) throws(PluginRefusal) -> PluginChildReply {
        guard let reply = watcher?.ask(request) else {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' (isolated) is not running now (its process is restarting or gave up)",
                                fix: "try again in a moment; the daemon's log says why it stopped")
        }
        if let problem = reply.problem { throw PluginRefusal(problem, fix: reply.fix ?? "see the daemon's log") }
        return reply
    }
}
