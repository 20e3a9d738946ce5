internal import CLilv
import Glibc
import RenderCore
import Synchronization

/// The host's side of a plugin's `worker:schedule`: what the plugin asks from `run()` is
/// done by its `work()` on a thread of the node's own ("midihub-lv2work"), and the answers
/// reach `work_response()` on the render thread before the next `run()`. Rendering offline
/// (`synchronous`), the work is done at once, inside `schedule_work`, as LV2 allows: a
/// render's sound does not depend on how fast a thread answered.
///
/// - Thread: any: `schedule` from the plugin's `run()` (render), the worker loop on its
///   thread, `deliverResponses`/`endRun` on render, `attach`/`stop` on control.
final class PluginWorker: @unchecked Sendable {
    /// The feature's data, at a fixed address while the worker lives.
    let schedule: UnsafeMutablePointer<LV2_Worker_Schedule>
    private let synchronous: Bool
    private let requests = ByteRing(capacity: 1 << 16, maximumMessage: 1 << 13)
    private let responses = ByteRing(capacity: 1 << 16, maximumMessage: 1 << 13)
    private let workerBuffer: UnsafeMutableRawPointer, renderBuffer: UnsafeMutableRawPointer
    private var interface: UnsafePointer<LV2_Worker_Interface>?
    private var plugin: LV2_Handle?
    private var wake = sem_t()
    private let running = Atomic<Bool>(false)
    private var thread: pthread_t?

    /// - Thread: control.
    init(synchronous: Bool) {
        self.synchronous = synchronous
        workerBuffer = .allocate(byteCount: requests.maximumMessage, alignment: 8)
        renderBuffer = .allocate(byteCount: responses.maximumMessage, alignment: 8)
        schedule = .allocate(capacity: 1)
        sem_init(&wake, 0, 0)
        let handle = Unmanaged.passUnretained(self).toOpaque()
        schedule.initialize(to: LV2_Worker_Schedule(handle: handle) { handle, size, data in
            guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
            return Unmanaged<PluginWorker>.fromOpaque(handle).takeUnretainedValue().scheduleWork(size: Int(size), data: data)
        })
    }

    deinit {
        stop()
        sem_destroy(&wake)
        schedule.deallocate()
        workerBuffer.deallocate()
        renderBuffer.deallocate()
    }

    /// Starts serving `instance`, when its plugin has a worker interface (else does nothing).
    /// - Thread: control.
    func attach(_ instance: UnsafeMutablePointer<LilvInstance>) {
        guard let data = lilv_instance_get_extension_data(instance, LV2Vocabulary.workerInterface) else { return }
        interface = data.assumingMemoryBound(to: LV2_Worker_Interface.self)
        plugin = lilv_instance_get_handle(instance)
        guard !synchronous else { return }
        running.store(true, ordering: .releasing)
        var made = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        guard pthread_create(&made, nil, { context in
            let worker = Unmanaged<PluginWorker>.fromOpaque(context!).takeRetainedValue()
            ThreadName.setForCurrentThread("midihub-lv2work")
            worker.serve()
            return nil
        }, context) == 0 else {
            Unmanaged<PluginWorker>.fromOpaque(context).release()
            running.store(false, ordering: .releasing)
            return
        }
        thread = made
    }

    /// Ends the worker thread, after the work it was doing (before the instance is freed).
    /// - Thread: control.
    func stop() {
        guard let thread else { return }
        running.store(false, ordering: .releasing)
        sem_post(&wake)
        pthread_join(thread, nil)
        self.thread = nil
    }

    /// Hands the plugin the answers its work sent since the last call.
    /// - Thread: render (before `run()`).
    func deliverResponses() {
        guard let interface, let plugin, let respond = interface.pointee.work_response else { return }
        while let size = responses.read(into: renderBuffer) { _ = respond(plugin, UInt32(size), renderBuffer) }
    }

    /// Tells the plugin its `run()` ended (`end_run`, when it has one).
    /// - Thread: render.
    func endRun() {
        guard let plugin, let end = interface?.pointee.end_run else { return }
        _ = end(plugin)
    }

    /// - Thread: render (the plugin's `run()`), or the control side while it instantiates.
    private func scheduleWork(size: Int, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        if synchronous {
            guard let plugin, let work = interface?.pointee.work else { return LV2_WORKER_ERR_UNKNOWN }
            return work(plugin, Self.respond, Unmanaged.passUnretained(self).toOpaque(), UInt32(size), data)
        }
        guard requests.write(data, count: size) else { return LV2_WORKER_ERR_NO_SPACE }
        sem_post(&wake)
        return LV2_WORKER_SUCCESS
    }

    /// The worker thread: each request to the plugin's `work()`, one at a time.
    private func serve() {
        while running.load(ordering: .acquiring) {
            sem_wait(&wake)
            while let size = requests.read(into: workerBuffer) {
                guard let plugin, let work = interface?.pointee.work else { continue }
                _ = work(plugin, Self.respond, Unmanaged.passUnretained(self).toOpaque(), UInt32(size), workerBuffer)
            }
        }
    }

    /// `work()`'s answer, queued for the render thread.
    private static let respond: LV2_Worker_Respond_Function = { handle, size, data in
        guard let handle else { return LV2_WORKER_ERR_UNKNOWN }
        let worker = Unmanaged<PluginWorker>.fromOpaque(handle).takeUnretainedValue()
        return worker.responses.write(data, count: Int(size)) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
    }
}
