import MIDICore
import ALSA
import AudioHost
import Control
import Foundation
import Glibc
import Hub
import Plugins
import RenderCore
import SetupViews
import SoundFont
import Synth
import Sequencer
import Transport
import OSCSurface
import Remote
import Synchronization

/// `midihub serve`: one ALSA sequencer client "midihub" with an input and an output port,
/// the hub's graph and rules, the built-in synth on a PCM device, and the control socket.
///
/// Threads: the MIDI input thread owns the state — the sequencer client, the ports, rules,
/// router and audio rack — and routes events (processors run there); the control server's
/// thread answers requests by handing work to it (`StateOwner`); the audio driver's render
/// thread plays the engine (it only reads its ring and program); the state writer saves.
///
/// - Thread: owner (the MIDI input thread) unless a member says otherwise; `start` and `stop` on the main thread (control); the rest as documented.
public final class HubDaemon: @unchecked Sendable {
    public let options: DaemonOptions
    public let log: DaemonLog
    /// Runs other threads' work on the MIDI input thread, the state's one owner.
    let owner: StateOwner
    let client: SeqClient
    let inPort: SeqPort
    let outPort: SeqPort
    /// What goes to other programs' ALSA ports, each receiver isolated (`ReceiverQueues`).
    let receivers: ReceiverQueues
    /// Saves the state off the MIDI path (see `saveState`).
    let stateWriter: StateWriter
    /// The patch file to reload when it changes (`reloadPatchIfChanged`).
    let patchFile: PatchFileWatch
    let catalog: NodeCatalog?
    /// The node types patches and `nodes.add` name: the built-ins, and the LV2 plugins
    /// installed (read the first time one is named, on the control side).
    let registry: NodeRegistry
    /// The LV2 plugins of the system (the directory `registry` finds plugin nodes in).
    let plugins: InstalledPlugins
    var ports = PortCatalog()
    /// The state's logic (`Hub.HubCore`): rules, graph and processors, tempo, mappings and
    /// learn, scenes, triggers, widgets, the transport and its takes. The daemon feeds it
    /// (`HubDaemon+Core`) and carries out its effects.
    var core: HubCore
    /// The state as the control side reads it, published by the owner (`HubDaemon+View`).
    let view: Published<HubView>
    /// Whether the core changed since the view was last published, and when that was.
    var viewDirty = false
    var lastViewPublished = HostTime.distantPast
    /// The last take stamp formatted, and the second it names (`stampIfRecording`).
    var lastTakeStamp: (second: Int, stamp: String) = (0, "")
    var audio: AudioRack?
    /// What the core asks for a live message (reused, so a plain message allocates nothing).
    var liveEffects: [HubEffect] = []
    /// The recording of what the daemon plays (`audio.record`), while one runs: claimed here
    /// by the control side's request, its file opened and finished on the control side.
    var audioTake: AudioTake?
    /// The queue that times the transport's events to ALSA ports (running from the start).
    let transportQueue: SeqQueue
    /// The queue's real time minus the transport's clock, steadied over readings.
    var queueClockOffset = ClockOffsetFilter()
    /// The queue's real time minus the monotonic clock, steadied over readings: turns the
    /// kernel's arrival stamps into monotonic times (`arrivals`).
    var queueAheadOfMonotonic = ClockOffsetFilter()
    /// When the queue's real time was last read for the two offsets (`transportClock`).
    var lastQueueReading = HostTime.distantPast
    /// The kernel's arrival stamps of the events on `midihub:in`, never going back.
    var arrivals = ArrivalClock()
    /// The transport's events for JACK ports, held until due.
    var heldForJack: [TransportTiming.HeldMessage] = []
    /// JACK MIDI ports and the MIDI carried to and from them.
    let jack: JackBridge
    /// What the hub's JACK client reads in its process callback, as last asked (`updateJackLane`).
    var jackLaneInputs: [JackMIDILane.Input] = []
    /// What `jackLaneInputs` was worked out from (`nil`: not playing into JACK).
    var jackLaneBasis: JackLaneBasis?
    /// The lane's losses already reported, and when they were last looked at (`reportJackLaneLosses`).
    var jackLaneLossesReported = 0
    var jackLaneLossCheck = HostTime.distantPast
    /// Set by port and client announcements; the port list is compared once per batch.
    var portsDirty = false
    /// Connections from midihub:out to external nodes' ports that the daemon made (`linkExternalNodes`).
    var externalLinks: Set<Connection> = []
    /// ALSA sources the daemon subscribed to midihub:in only to carry them to JACK ports.
    var forwardSubscriptions: Set<PortAddress> = []
    /// When to try opening the audio device again after it failed (`watchAudio`).
    var audioRetryDue: HostTime?
    /// Whether a worker is opening the audio device again (`watchAudio`).
    var reopeningAudio = false
    /// Whether a worker is opening the audio device for the first audio node a graph edit
    /// added (`startAudioLater`).
    var openingAudio = false
    /// Why the last attempt to open it again failed, logged once (`watchAudio`).
    var lastAudioReopenFailure: String?
    /// Whether the SoundFont's file was seen to change under the daemon (logged once, `watchAudio`).
    var reportedSoundFontChange = false
    /// Work on other threads that hands results back to the owner; `stop` waits for it.
    let slowWork = DispatchGroup()
    /// The ALSA or JACK port each external node plays to (see `RouteCache`).
    var routeCache = RouteCache()
    private var knownOverruns = 0
    /// When lost input or output was last logged (the monotonic clock), to log at most once a second.
    private var lastLossReport = HostTime.distantPast
    private(set) var control: ControlServer?
    /// The web remote, when `options.remote` asks for one (`HubDaemon+Remote`).
    var remote: RemoteServer?
    /// The OSC server, where `serve --osc` or the patch's `osc:` asks for one.
    let osc: OSCService
    /// The RTP-MIDI sessions the core's `network` settings ask for, on threads of their own.
    let network: NetworkSessions
    private var controlHandler: DaemonControl?
    private var inputThread: Thread?
    /// systemd's notification socket (`Type=notify`), when the service manager gave one.
    let systemd: SystemdNotifier?
    private let stopping = Atomic<Bool>(false)
    /// Signalled once the MIDI input thread owns the state: `start` waits for it, so no work
    /// runs on main while that thread begins (`StateOwner.perform` runs work on its caller
    /// until an owner runs).
    private let inputOwns = DispatchSemaphore(value: 0)
    private let inputDone = DispatchSemaphore(value: 0)

    /// Opens the sequencer client and its ports and chooses the setup: `--patch`, else the
    /// saved state, else the embedded default.
    /// - Throws: `DaemonError` (bad patch, no sequencer).
    /// - Thread: control (main, while the daemon starts or stops).
    public init(options given: DaemonOptions, log: DaemonLog = DaemonLog(), systemd: SystemdNotifier? = nil) throws {
        var options = given
        self.log = log
        self.systemd = systemd
        let store = StateStore(path: options.statePath)
        patchFile = PatchFileWatch(path: options.patchPath)
        jack = JackBridge(log: log, clientName: options.clientName)
        network = NetworkSessions(log: log, allowList: options.allowList)
        osc = OSCService(fixed: options.osc, socket: options.socket, allowList: options.allowList, log: log)
        plugins = InstalledPlugins(isolation: options.pluginIsolation, report: { [log] line in log.warning(line) })
        registry = NodeTypes.registry.with(plugins: plugins)
        catalog = options.audio ? Self.loadCatalog(options, plugins: plugins, log: log) : nil
        options.driverOptions.jackPorts = catalog?.jackPorts  // other apps' sound through the hub's JACK client
        if let lane = catalog?.jackPorts.midi { jack.adopt(lane) }
        self.options = options
        let setup = try Self.initialSetup(options, soundFont: catalog?.font, registry: registry, store: store, log: log)
        if let catalog, catalog.font == nil {
            for node in setup.graph.nodes {
                guard case .unit(let descriptor) = node.body, descriptor == SoundFontNode.nodeDescriptor else { continue }
                log.warning("node '\(node.id)' plays a SoundFont but none is loaded; it stays silent "
                    + "(fix: pass --soundfont FILE or install fluid-soundfont-gm)")
            }
        }
        do {
            owner = try StateOwner()
        } catch {
            throw DaemonError.control("cannot make the control side's wake-up: \(error)")
        }
        do {
            client = try SeqClient(name: options.clientName)
            transportQueue = try client.makeQueue(name: "midihub transport")
            try client.start(transportQueue)
            // The kernel stamps what arrives with the queue's time: a take, a clock pulse and
            // a note for a unit node keep when they arrived, not when the hub read them.
            inPort = try client.createPort(name: "in", capabilities: .destination, types: [.midiGeneric, .application],
                                           timestampQueue: transportQueue)
            outPort = try client.createPort(name: "out", capabilities: .source, types: [.midiGeneric, .application])
            try client.subscribe(sender: .systemAnnounce, destination: inPort.address)
        } catch {
            throw DaemonError.sequencer(error.description)
        }
        receivers = ReceiverQueues(client: client, port: outPort, giveUpAfter: options.receiverTimeout)
        do {
            try client.setPoolSizes(input: SeqClient.maximumPoolSize, output: SeqClient.maximumPoolSize)
        } catch {
            log.warning("keeping the sequencer's default event pools (input bursts may overflow): \(error)")
        }
        let sequencePort = PortDescriptor(address: PortAddress(client: Int(client.clientID), port: -1),
                                          clientName: options.clientName, portName: "sequence", portClass: .app,
                                          direction: .output)
        do {
            core = try HubCore(state: setup, registry: registry, sequencePort: sequencePort)
        } catch {
            throw DaemonError.badSetup(error.description)
        }
        view = Published(HubView(hub: core.snapshot, ports: PortCatalog(), rendered: nil, receivers: [:], format: nil, rack: nil))
        let pluginFiles = ((options.statePath as NSString).deletingLastPathComponent as NSString).appendingPathComponent("plugin-files")
        stateWriter = StateWriter(store: store, log: log, plugins: PluginStateCapture(view: view, filesFolder: pluginFiles))
    }

    /// Takes the control socket (its requests held), the web remote's port (`--remote`) and
    /// the OSC port (`--osc`),
    /// starts audio (when the graph has audio nodes), applies the rules, starts the MIDI input
    /// thread (from then on the state's owner) and opens the socket to requests, announcing
    /// `started`.
    /// - Thread: control (main, while the daemon starts or stops).
    public func start() throws {
        let handler = DaemonControl(daemon: self)
        controlHandler = handler
        let server = ControlServer(path: options.socket, handler: handler, version: MidihubVersion.current,
                                   report: { [log] line in log.warning(line) })
        do {
            try server.start(holdingRequests: true)
        } catch {
            throw DaemonError.control(error.description)
        }
        control = server
        do {
            remote = try startRemote()
            try osc.start()
        } catch {
            stopRemote()
            server.stop()
            throw error
        }
        log.attach { [weak server] in server?.publish($0) }
        publishPluginChildEnds()
        startAudioIfNeeded()
        _ = jack.start()
        refreshPorts()
        reconcile()
        saveState()
        network.apply(core.snapshot.network)
        osc.apply(core.snapshot.network.osc)
        let thread = Thread { [self] in runInput() }
        thread.name = "midihub-input"
        thread.start()
        inputOwns.wait()  // from here on, work from other threads runs on it
        inputThread = thread
        log.info("serving as \(client.clientID):\(inPort.address.port) (\(options.clientName):in) and \(outPort.address) (\(options.clientName):out), control socket \(options.socket.socket)")
        notifyReady()
    }

    /// Stops the control socket and the input thread, silences and closes audio, saves the state.
    /// - Thread: control (main, while the daemon starts or stops).
    /// - Parameter reason: what stops it (the signal's name, as `SIGTERM`), for the `stopping` event.
    public func stop(reason: String = "stop") {
        notifyStopping(reason: reason)
        control?.stop()  // first: each browser's bridge ends with its control connection
        stopRemote()
        osc.stop()
        network.stop()  // each peer hears BY; the notes they left sounding end while the hub still routes
        controlHandler?.finishAudioRecording()  // a recording in progress is written, not lost
        stopInput()
        if core.snapshot.transport.isRecording { runTransport(.toggleRecording(stamp: Self.takeStamp())) }  // a take in progress is written, not lost
        jack.stop()
        // A worker still opening the audio device hands its result over first (the owner
        // has resigned, so that runs on the worker); then main is the only thread left.
        slowWork.wait()
        try? audio?.stop()
        saveState()
        stateWriter.flush()
        log.info("stopped")
        log.flush()
    }

    /// Ends the MIDI input thread and waits for it (work queued meanwhile still runs).
    private func stopInput() {
        stopping.store(true, ordering: .releasing)
        if inputThread != nil { inputDone.wait() }
        inputThread = nil
    }

    /// The MIDI input thread, the state's owner: blocks in `poll` on the sequencer (and on
    /// the wake-ups of JACK input and of queued work) until input arrives or the next
    /// arpeggiator step is due (at most 10 ms: the rules' settle time, the transport and the
    /// stop flag), runs the work other threads queued, then routes everything already
    /// pending — one `read` fetches a burst — and hands the output to ALSA once for the
    /// whole batch. A turn that routes one event makes four system calls: the `poll`, the
    /// `read`, the `write` and one clock reading after it (a wake-up's signal is cleared only
    /// when the poll found it set, the transport queue's time is read at most every
    /// `queueReadInterval`). What runs every turn copies no part of the core (`TurnReading`).
    private func runInput() {
        owner.becomeOwner()
        log.adoptProducer()
        systemd?.adoptProducer()
        jack.adoptProducer()
        inputOwns.signal()
        defer {
            jack.releaseProducer()
            systemd?.releaseProducer()
            log.releaseProducer()
            owner.resign()
            inputDone.signal()
        }
        ThreadName.setForCurrentThread("midihub-input")
        requestInputPriority()
        let jackWakeups = jack.wakeDescriptors
        let watched = jackWakeups + [owner.descriptor]
        while !stopping.load(ordering: .acquiring) {
            do {
                let readable = try client.waitForInput(milliseconds: pollTimeout(), alsoWatching: watched).readable
                owner.runPending(signalled: readable.contains(owner.descriptor))
                receivers.retry()
                reportReceiverChanges(receivers.takeChanges())
                try handlePendingInput(jackSignalled: readable.contains { jackWakeups.contains($0) })
            } catch {
                // No sleep: queued work and JACK input still wake the owner while the
                // sequencer is left alone for a moment.
                log.error("reading the sequencer failed: \(error) — trying again in 100 ms")
                Self.wait(for: watched, milliseconds: 100)
            }
            audio?.publishLive()  // what a control request or a failed batch staged
            publishViewIfDue()
        }
    }

    /// Waits until one of `descriptors` is readable or `milliseconds` pass.
    private static func wait(for descriptors: [Int32], milliseconds: Int32) {
        var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), milliseconds)
    }

    /// Milliseconds until a processor's next generated event (rounded up: it is sent at
    /// most a millisecond late), at most 10; at most `ReceiverQueues.retryMilliseconds` while
    /// a full receiver has messages waiting.
    /// - Thread: owner (the MIDI input thread).
    private func pollTimeout() -> Int32 {
        let limit = receivers.hasWaiting ? ReceiverQueues.retryMilliseconds : 10
        guard let next = core.turnReading.nextGeneratedTime else { return limit }
        let microseconds = max((next - HostTime.now()).microseconds, 0)
        return Int32(min((microseconds + 999) / 1000, Int64(limit)))
    }

    /// Routes up to `batchLimit` pending events (then lets queued work run), then gives the
    /// core its turn (`HubInput.tick`: the transport, the processors, learning, feedback, the
    /// rules). Each event goes in at its arrival (`arrivalTime`); what the events send to
    /// other programs' ports leaves in one `write` (`ReceiverQueues.beginBatch`). The clock is
    /// read for the turn after that write, off the hop's path (an event carries the kernel's
    /// stamp of its arrival).
    /// - Thread: owner (the MIDI input thread).
    private func handlePendingInput(jackSignalled: Bool) throws(ALSAError) {
        var handled = 0
        var sink = makeSink()
        var readTime: HostTime?  // only for an event without a usable stamp
        receivers.beginBatch()
        defer { receivers.endBatch() }  // also when a read fails
        // One read's events (alsa-lib's buffer holds the whole input FIFO): when they are
        // routed, the next poll says whether more came, at the cost of the read that would ask.
        while handled < Self.batchLimit {
            guard let event = try client.receivePending() else { break }
            handle(event, at: arrivalTime(of: event.time, readTime: &readTime), into: &sink)
            handled += 1
            if !client.hasBufferedInput { break }
        }
        receivers.endBatch()
        flush(sink)
        let now = HostTime.now()
        serviceJack(signalled: jackSignalled)
        if portsDirty {
            portsDirty = false
            syncPorts()
        }
        noteLostInput(now: now)
        sendDueJackMessages(now: now)
        let (clock, timing) = transportClock(monotonic: now)
        feed(.tick(clock, stamp: stampIfRecording()), timing: timing)
        watchAudio()
        notifySystemd(now: now)
    }

    /// Events routed before queued work gets its turn.
    static let batchLimit = 512

    /// Hands one event, which arrived at `time`, to the core (MIDI it routes goes into `sink`).
    /// - Thread: owner (the MIDI input thread).
    private func handle(_ event: SeqEvent, at time: HostTime, into sink: inout DaemonSink) {
        switch event {
        case .message(let message, let source, _):
            let address = PortAddress(source)
            jack.forward(message, from: address)
            if portsDirty, !core.snapshot.knowsPort(at: address) {
                // A new app's port and its first events arrive in one batch (aplaymidi sends at once).
                portsDirty = false
                flush(sink)
                syncPorts()
                sink = makeSink()
            }
            routeLive(message, from: address, at: time, into: &sink)
        case .announce(let announcement, _):
            handle(announcement)
        case .unsupported:
            return
        }
    }

    /// When an event arrived, on the monotonic clock: the kernel's stamp (the transport
    /// queue's real time as it reached `midihub:in`) less the queue's offset. Without one —
    /// before the offset's first reading (the first turn) — the time of the read: the clock is
    /// read then, once a batch (`readTime`), so a stamped event's hop makes no clock reading
    /// (a system call under emulation, where the clock source is the HPET).
    /// - Thread: owner (the MIDI input thread).
    private func arrivalTime(of stamp: SeqTime, readTime: inout HostTime?) -> HostTime {
        if let ahead = queueAheadOfMonotonic.value, let arrival = arrivals.time(of: stamp) { return arrival.monotonic(ahead: ahead) }
        let now = readTime ?? HostTime.now()
        readTime = now
        return now
    }

    /// Input lost in the kernel (the FIFO overflowed while the hub fell behind) may have held
    /// port announcements: the port list is read again a second later (once, however many
    /// overflows come meanwhile). Losses — the hub's input and each receiver's — are reported
    /// at most once a second (`reportReceiverLosses`).
    private func noteLostInput(now: HostTime) {
        let overruns = client.inputOverruns
        if overruns != knownOverruns { feed(.inputLost(at: now)) }
        guard now - lastLossReport >= 1 else { return }
        let receiverLosses = receivers.takeLosses()
        guard overruns != knownOverruns || !receiverLosses.isEmpty else { return }
        lastLossReport = now
        if overruns != knownOverruns {
            log.warning("MIDI lost: input overflowed \(overruns - knownOverruns) times (the hub fell behind its input)")
            knownOverruns = overruns
        }
        reportReceiverLosses(receiverLosses)
    }

    func makeSink() -> DaemonSink {
        DaemonSink(audio: audio, receivers: receivers,
                   destinations: routeDestinations(),
                   jack: jack)
    }

    /// The port of each external node of the current graph, by node index (`RouteCache`): the
    /// graph is read, through a snapshot, only after it changed.
    /// - Thread: owner.
    func routeDestinations() -> [ExternalDestination?] {
        routeCache.destinations(ports: { ports }, revision: core.turnReading.graphRevision, graph: { core.snapshot.graph },
                                ownClient: client.clientID)
    }

    /// Hands ALSA ports what a batch buffered for them (`ReceiverQueues+Batch`) and publishes
    /// the live events it staged for the render thread (all at once: see `LiveInput`).
    func flush(_ sink: DaemonSink) {
        receivers.deliverBuffered()
        audio?.publishLive()
    }

    /// Saves graph, rules and runtime edits: hands them to the state writer, which writes
    /// them from its own queue (the disk never holds up MIDI).
    /// - Thread: owner (the input thread, or main before it starts).
    func saveState() {
        stateWriter.submit(core.snapshot.state)
    }

    private static func loadCatalog(_ options: DaemonOptions, plugins: InstalledPlugins, log: DaemonLog) -> NodeCatalog? {
        let report: @Sendable (String) -> Void = { log.warning($0) }
        let bank: PresetBank
        do {
            bank = try PresetBankLoader.load(override: options.presetBank).bank
        } catch {
            log.warning("no audio, running MIDI-only: \(error)")
            return nil
        }
        guard let path = options.soundFont else { return NodeCatalog(bank: bank, plugins: plugins, report: report) }
        do {
            let font = try SoundFont.open(path)
            font.sampleData.warmPageCache()  // no disk read on the render thread when a program first plays
            log.info("SoundFont: \(path) (\(font.name), \(font.presets.count) presets)")
            return NodeCatalog(bank: bank, font: font, plugins: plugins, report: report)
        } catch {
            log.warning("no SoundFont, the built-in synth plays: \(error)")
            return NodeCatalog(bank: bank, plugins: plugins, report: report)
        }
    }

    private static func initialSetup(_ options: DaemonOptions, soundFont: SoundFont?, registry: NodeRegistry, store: StateStore,
                                     log: DaemonLog) throws -> HubState {
        if let path = options.patchPath {
            do {
                let patch = try Patch.load(contentsOf: path, registry: registry)
                log.info("loaded patch \(path)")
                return HubState(graph: patch.graph, rules: patch.rules, tempo: patch.tempo, mappings: patch.mappings,
                                scenes: patch.scenes, triggers: patch.triggers, widgets: patch.widgets,
                                network: patch.network, jackTransport: patch.jackTransport)
            } catch {
                throw DaemonError.badSetup(error.description)
            }
        }
        var (state, problem): (HubState, StateError?)
        do {
            (state, problem) = try store.restore(stamp: takeStamp())
        } catch {
            throw DaemonError.badSetup(error.description)
        }
        if let problem {
            log.warning("\(problem)")
        } else if FileManager.default.fileExists(atPath: store.path) {
            log.info("restored state from \(store.path)")
            if let rules = DefaultSetup.rulesReplacingFormerDefault(state.rules) {
                state.rules = rules
                log.info("rules: the former default's `disallow \"Midi Through\" -> *` broke other programs' connections; "
                    + "now `disallow \"Midi Through\" -> \"midihub:in\"` (docs/daemon.md#default-setup)")
            }
            let (graph, refusals) = state.graph.resolvingPlugins(with: registry)
            for refusal in refusals { log.warning("\(refusal.problem); its node stays silent (fix: \(refusal.fix))") }
            state.graph = graph
            return state
        }
        let patch = DefaultSetup.patch(soundFont: soundFont != nil)
        log.info("no patch and no saved state: every hardware MIDI input plays "
            + (soundFont.map { "the SoundFont \($0.name)" } ?? "the built-in synth"))
        return HubState(graph: patch.graph, rules: patch.rules, tempo: patch.tempo)
    }
}

/// Why the daemon could not start. One line each: the problem and the fix.
/// - Thread: any (a plain value).
public enum DaemonError: Error, CustomStringConvertible {
    case sequencer(String)
    case badSetup(String)
    case control(String)

    public var description: String {
        switch self {
        case .sequencer(let text): "cannot open the ALSA sequencer: \(text)"
        case .badSetup(let text): text
        case .control(let text): text
        }
    }
}
