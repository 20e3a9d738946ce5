import ALSA
import Dispatch
import Glibc
import MIDICore
import RenderCore
import Sequencer

/// Plays a `RenderEngine` live to an ALSA PCM device from its own render thread, or into
/// JACK as a JACK client (`AudioTarget.jack`: JACK's process thread renders, one JACK period
/// a block, and JACK's clock paces it; see `JackAudioClient`).
///
/// Each period the render thread takes the live events that arrived through `live`
/// (delivered one period after arrival, at their exact offset: constant latency), the
/// block's events of an optional `RenderSchedule` (at their exact frame: the frame clock
/// is frames rendered), renders the engine's program and writes the block; the blocking
/// write paces the loop. It asks for `SCHED_FIFO` first, and drops back to normal
/// scheduling when its blocks keep rendering slower than they play (`OverrunWatchdog`):
/// a realtime thread that never waits in the write would starve the machine.
///
/// Use:
/// ```swift
/// let driver = try AudioDriver(device: "default", options: AudioDriverOptions())
/// engine.install(RenderProgram(nodes: nodes, format: driver.renderFormat))
/// if case .denied(let warning) = try driver.start(engine: engine) { print(warning) }
/// driver.live.push(.noteOn(channel: 0, note: 69, velocity: 100))   // from the MIDI input thread
/// try driver.stop()                                                // fade out, drain, close
/// ```
///
/// - Thread: control for `init`, `start`, `stop`; `live` from one producer thread;
///   `isRunning` and `counters` from any thread.
public final class AudioDriver: @unchecked Sendable {
    /// Where the sound goes.
    public let target: AudioTarget
    /// What the device accepted (in JACK: the server's rate and period, two channels, and
    /// two periods as the buffer).
    public let settings: PCMSettings
    public let options: AudioDriverOptions
    /// Frames per engine block: the device period (at most `RenderFormat.blockSizes`' upper bound).
    public let blockFrames: Int
    /// Live events into the render thread (one producer).
    public let live: LiveInput
    /// The transport's events into the render thread, at their exact frames (one producer).
    public let sequenced = SequencedInput()
    /// What the render thread plays, for an `AudioRecorder` while one records.
    public let tap = AudioTap()

    /// The device or the JACK client the sound goes to.
    private enum Sink {
        case pcm(PCMDevice)
        case jack(JackAudioClient, destination: String)
    }

    private let sink: Sink
    private let state = DriverState()
    private var engine: RenderEngine?
    private var voiceMeter: VoiceMeter?
    private var loop: RenderLoop?
    private var thread: JoinableThread?
    /// The ports the JACK client's output was connected to when it opened (empty on ALSA).
    public private(set) var jackConnections: [String] = []

    /// Opens and configures the playback device `device` (`default`, `hw:1,0`, `plughw:…`).
    /// - Throws: `PCMError` naming the device and the fix (unknown, busy, refused settings).
    /// - Thread: control.
    public convenience init(device name: String, options: AudioDriverOptions = AudioDriverOptions()) throws(PCMError) {
        try self.init(target: .alsa(device: name), options: options)
    }

    /// Opens `target`: the ALSA device, configured as `options.pcm` asks, or a JACK client
    /// (which takes the server's rate and period; `options.pcm` does not apply), activated
    /// and connected here (silent until `start`): the server's round trips are made on the
    /// thread that opens the driver, not the one that starts it.
    /// - Throws: `PCMError` naming the device or the JACK server, and the fix.
    /// - Thread: control.
    public init(target: AudioTarget, options: AudioDriverOptions = AudioDriverOptions()) throws(PCMError) {
        self.target = target
        self.options = options
        switch target {
        case .alsa(let name):
            let device = try PCMDevice(name: name, configuration: options.pcm, alsaConfiguration: options.alsaConfiguration)
            sink = .pcm(device)
            settings = device.settings
        case .jack(let clientName, let destination):
            let client = try JackAudioClient(clientName: clientName, inputs: options.jackPorts)
            sink = .jack(client, destination: destination)
            settings = PCMSettings(deviceName: "jack:\(client.name)", format: .float32LE, sampleRate: client.sampleRate, channels: 2,
                                   periodFrames: client.periodFrames, bufferFrames: 2 * client.periodFrames)
        }
        blockFrames = min(settings.periodFrames, RenderFormat.blockSizes.upperBound)
        live = LiveInput(capacity: options.liveEventCapacity)
        if case .jack(let client, let destination) = sink {
            do throws(PCMError) {
                try client.activate(state: state)
            } catch {
                client.close()
                throw error
            }
            jackConnections = client.connect(to: destination)
        }
    }

    deinit {
        try? stop()
    }

    /// The format to prepare the engine's program for: the device's rate, one period per block.
    /// - Thread: any.
    public var renderFormat: RenderFormat {
        RenderFormat(sampleRate: Double(settings.sampleRate), maxFrames: blockFrames)
    }

    /// Starts the render thread on `engine`, whose installed program must be prepared for
    /// `renderFormat`. With a `schedule`, its events play at their exact frames and
    /// playback ends by itself after its end plus `options.tailSeconds`; without, the
    /// driver plays live input until `stop()`.
    ///
    /// - Parameter voiceMeter: where `counters.activeVoices` comes from.
    /// - Returns: the realtime priority the render thread got, or nil when not asked for;
    ///   show `.denied`'s warning to the user.
    /// - Throws: `RenderThreadError` when no thread can be started.
    /// - Thread: control (once).
    @discardableResult
    public func start(engine: RenderEngine, schedule: RenderSchedule? = nil,
                      voiceMeter: VoiceMeter? = nil) throws(RenderThreadError) -> PCMRealtimePriority? {
        precondition(thread == nil && loop == nil, "AudioDriver.start called twice")
        let inJack = if case .jack = sink { true } else { false }
        let loop = RenderLoop(engine: engine, live: live, sequenced: sequenced, tap: tap, state: state, schedule: schedule,
                              sampleRate: settings.sampleRate, channels: settings.channels, blockFrames: blockFrames, options: options,
                              jackMIDI: inJack ? options.jackPorts : nil)
        self.engine = engine
        self.voiceMeter = voiceMeter
        self.loop = loop
        let device: PCMDevice
        switch sink {
        case .pcm(let pcm):
            device = pcm
        case .jack(let client, _):
            // JACK's process thread renders, at the priority the server gives its clients.
            client.play(loop)
            return nil
        }
        let started = DispatchSemaphore(value: 0)
        let priority = PriorityResult()
        let wantsRealtime = options.realtimePriority
        state.running.store(true, ordering: .releasing)
        do {
            thread = try JoinableThread(name: "midihub-render") {
                if wantsRealtime {
                    priority.value = PCMRealtimePriority.requestForCurrentThread()
                    if case .granted = priority.value { loop.watchOverruns() }
                }
                started.signal()
                loop.run(on: device)
            }
        } catch {
            state.running.store(false, ordering: .releasing)
            throw error
        }
        started.wait()
        return priority.value
    }

    /// False once the render thread has ended: the schedule finished, the device failed,
    /// or a stop completed.
    /// - Thread: any.
    public var isRunning: Bool { state.running.load(ordering: .acquiring) }

    /// True once the render thread left realtime priority because its blocks kept rendering
    /// slower than they play (it keeps playing, with dropouts, at normal priority); show
    /// `realtimeDroppedWarning` once.
    /// - Thread: any.
    public var realtimeDropped: Bool { state.realtimeDropped.load(ordering: .acquiring) }

    /// The one-line warning for `realtimeDropped`.
    public var realtimeDroppedWarning: String {
        "audio: rendering is slower than playback (\(OverrunWatchdog.defaultLimit) blocks of \(blockFrames) frames in a row), "
            + "dropped realtime priority so the rest of the system keeps running "
            + "(fix: a larger --period, fewer voices or effects, or a release build)"
    }

    /// Why the render thread ended early (device gone, write failed); nil while it runs
    /// or after a normal end.
    /// - Thread: control.
    public var failure: PCMError? {
        if isRunning { return nil }
        if case .jack(let client, _) = sink, client.serverGone { return .jackStopped(reason: client.stopReason) }
        return loop?.failure
    }

    /// The tempo `HostSync` reports to nodes while playing live (quarter notes per minute;
    /// 120 until set). A schedule's own tempo map wins while one plays.
    /// - Thread: any.
    public var tempo: Double {
        get { Double(bitPattern: state.tempoBits.load(ordering: .relaxed)) }
        set { state.tempoBits.store(max(1, newValue).bitPattern, ordering: .relaxed) }
    }

    /// Frames rendered since the render thread started: the clock of sequenced events.
    /// - Thread: any.
    public var framesRendered: FramePosition { FramePosition(state.framesRendered.load(ordering: .relaxed)) }

    /// - Thread: any.
    public var counters: AudioDriverCounters {
        AudioDriverCounters(framesRendered: state.framesRendered.load(ordering: .relaxed),
                            underruns: underruns,
                            droppedEvents: state.droppedEvents.load(ordering: .relaxed) + live.droppedCount + sequenced.droppedCount
                                + (engine?.droppedEvents ?? 0),
                            activeVoices: voiceMeter?.voices ?? 0)
    }

    /// Underruns the device recovered from; in JACK, the xruns the server reported.
    private var underruns: Int {
        switch sink {
        case .pcm(let device): device.statistics.underruns
        case .jack(let client, _): client.xruns.load(ordering: .relaxed)
        }
    }

    /// JACK's transport as last changed; nil on ALSA.
    /// - Thread: any.
    public var jackTransport: JackTransportReading? {
        guard case .jack(let client, _) = sink else { return nil }
        return client.transport
    }

    /// Makes the hub JACK's timebase master or lets go of it (docs/jack.md#jack-transport);
    /// false on ALSA or when JACK refused.
    /// - Thread: control.
    @discardableResult
    public func leadJackTransport(_ leading: Bool) -> Bool {
        guard case .jack(let client, _) = sink else { return false }
        return client.lead(leading)
    }

    /// Moves JACK's transport to `seconds`, rolling or stopped (nothing on ALSA).
    /// - Thread: control.
    public func moveJackTransport(rolling: Bool, seconds: Double) {
        guard case .jack(let client, _) = sink else { return }
        client.moveTransport(rolling: rolling, seconds: seconds)
    }

    /// Ends playback: a short fade (`options.fadeOutSeconds`), All Sound Off on every
    /// channel, then the device plays out what it holds; waits for the render thread and
    /// closes the device. After a natural end it only waits and closes. Calling it again
    /// does nothing.
    /// - Throws: the `PCMError` that ended playback early (device gone, write failed).
    /// - Thread: control.
    public func stop() throws(PCMError) {
        state.stopRequested.store(true, ordering: .releasing)
        switch sink {
        case .pcm(let device):
            thread?.join()
            thread = nil
            device.close()
        case .jack(let client, _):
            // The process callback fades out and then clears `running`; a server that went
            // calls it no more.
            let deadline = HostTime.now() + HostDuration(seconds: options.fadeOutSeconds + 1)
            while isRunning, !client.serverGone, HostTime.now() < deadline { usleep(1000) }
            client.close()
        }
        if let failure = loop?.failure {
            loop = nil
            throw failure
        }
    }
}

/// The render thread's priority result, handed to `start` (written before the
/// semaphore is signalled, read after it was waited for).
private final class PriorityResult: @unchecked Sendable {
    var value: PCMRealtimePriority?
}
