import MIDICore
import ALSA
import AudioHost
import Control
import Dispatch

/// The sound card's life in the daemon. It is opened when the graph first has nodes that
/// make or take sound: at start, or when a graph edit adds the first one. Then, what the
/// render thread cannot say itself: that it left realtime priority because it cannot keep
/// up, or that it ended because the device failed. Checked by the MIDI input thread on each
/// round; a failed device is opened again at once (the synth keeps its voices), then every
/// `audioRetryInterval` while it cannot be (a failure is logged once, and again only when its
/// cause changes). Opening a device can take long (a USB card waking, a busy driver), so
/// once the daemon runs it is opened on a worker: MIDI goes on meanwhile, and the owner
/// adopts the opened device when the worker hands it back.
extension HubDaemon {
    /// Opens the main device and starts playing the graph, when it has audio nodes and audio
    /// is wanted; logs one line and stays MIDI-only when it cannot.
    /// - Thread: control (main, at start, before the owner runs).
    func startAudioIfNeeded() {
        guard audio == nil, graphNeedsAudio else { return }
        let target = mainAudioTarget
        adoptFirstAudio(Result { () throws(PCMError) in try AudioDriver(target: target, options: options.driverOptions) },
                        target: target)
    }

    /// The same once the daemon runs (a graph edit added the first audio node): the device
    /// is opened on a worker, and the graph as it is then starts playing on it.
    /// - Thread: owner.
    func startAudioLater() {
        guard audio == nil, !openingAudio, graphNeedsAudio else { return }
        openingAudio = true
        let backend = options.audioBackend, device = mainAudioDevice, clientName = options.clientName, options = options.driverOptions
        slowWork.enter()
        DispatchQueue.global().async { [self] in
            defer { slowWork.leave() }
            let (target, choice) = backend.target(device: device, clientName: clientName)
            if let choice { log.info(choice) }
            let opened = Result { () throws(PCMError) in try AudioDriver(target: target, options: options) }
            try? perform { [self] in
                openingAudio = false
                adoptFirstAudio(opened, target: target)
            }
        }
    }

    /// Whether the graph has nodes that make or take sound, and audio is wanted.
    private var graphNeedsAudio: Bool {
        catalog != nil && core.snapshot.graph.nodes.contains { node in
            switch node.body { case .unit, .input: true; case .external(let external): external.playsIntoGraph; default: false }
        }
    }

    /// The device the graph plays to: `serve --device`, else the first output's, else `default`.
    private var mainAudioDevice: String {
        options.device ?? core.snapshot.graph.nodes.lazy.compactMap { node -> String? in
            if case .output(let name) = node.body { name } else { nil }
        }.first ?? "default"
    }

    /// The main output's target as `serve --audio` says (`auto` asks the JACK server and
    /// logs its choice).
    private var mainAudioTarget: AudioTarget {
        let (target, choice) = options.audioBackend.target(device: mainAudioDevice, clientName: options.clientName)
        if let choice { log.info(choice) }
        return target
    }

    /// Plays the graph on the opened device (unless an edit took its audio nodes away
    /// meanwhile: the device is closed again), or logs why there is no audio.
    private func adoptFirstAudio(_ opened: Result<AudioDriver, PCMError>, target: AudioTarget) {
        guard audio == nil, graphNeedsAudio, let catalog else { return }
        do {
            let rack = AudioRack(driver: try opened.get(), catalog: catalog)
            rack.driver.tempo = core.snapshot.tempo
            for warning in try rack.install(core.snapshot.graph, stopped: []) { log.warning(warning) }
            audio = rack
            audioRetryDue = nil
            lastAudioReopenFailure = nil
            logPlaying(rack.driver)
        } catch {
            guard case .jack = target, case .jackUnavailable? = error as? PCMError else {
                log.warning("no audio, running MIDI-only: \(error)")
                return
            }
            // No JACK server yet (a session manager starts it later): MIDI goes on, and the
            // hub joins one when it runs.
            audioRetryDue = HostTime.now() + Self.audioRetryInterval
            let failure = "\(error)"
            guard failure != lastAudioReopenFailure else { return }
            lastAudioReopenFailure = failure
            log.warning("\(failure); MIDI goes on, and the sound starts when a JACK server runs "
                        + "(looking every \(Int(Self.audioRetryInterval.seconds)) s)")
        }
    }

    /// `node-gone` for each output node of the graph: what they played to went away.
    private func publishOutputsGone(reason: NodeGoneReason) {
        for node in core.snapshot.graph.nodes {
            if case .output = node.body { log.publish(.nodeGone(node: node.id.description, reason: reason)) }
        }
    }

    /// The line that says where the sound goes: the device and its settings; in JACK, the
    /// client's ports and what they are connected to.
    private func logPlaying(_ driver: AudioDriver) {
        switch driver.target {
        case .alsa(let device):
            log.info("audio: playing to \(device) (\(driver.settings))")
        case .jack:
            let client = driver.settings.deviceName.dropFirst("jack:".count)
            let connected = driver.jackConnections
            log.info("audio: playing into JACK as \(client):left and \(client):right (\(driver.settings.sampleRate) Hz, "
                     + "\(driver.settings.periodFrames) frames a period), connected to "
                     + (connected.isEmpty ? "nothing (no port matched; connect them with jack_connect)" : connected.joined(separator: ", ")))
        }
    }

    /// How long to wait before opening the device again after a failed attempt.
    static let audioRetryInterval: HostDuration = 5

    /// - Thread: owner (the MIDI input thread).
    func watchAudio() {
        reportSoundFontChange()
        guard let audio else {
            // `--audio jack` before a JACK server runs: try again when due.
            if let due = audioRetryDue, HostTime.now() >= due, !openingAudio {
                audioRetryDue = nil
                startAudioLater()
            }
            return
        }
        if audio.driver.realtimeDropped, !audio.reportedRealtimeDrop {
            audio.reportedRealtimeDrop = true
            log.warning(audio.driver.realtimeDroppedWarning)
        }
        if audio.driver.isRunning {
            reportUnderruns(of: audio)
            passJackTransport(of: audio)
            takeJackTimebase(for: audio)
        }
        guard !audio.driver.isRunning, !reopeningAudio else { return }
        if let due = audioRetryDue {
            guard HostTime.now() >= due else { return }
        } else {
            let cause = audio.driver.failure.map(\.description) ?? "the render thread ended"
            log.error("audio stopped: \(cause); opening the device again")
            if case .jackStopped = audio.driver.failure { publishOutputsGone(reason: .jackStopped) }
        }
        audio.releaseDevice()
        reopeningAudio = true
        let target = audio.driver.target, options = audio.driver.options
        slowWork.enter()
        DispatchQueue.global().async { [self] in
            defer { slowWork.leave() }
            let opened = Result { () throws(PCMError) in try AudioDriver(target: target, options: options) }
            try? perform { [self] in adoptReopenedAudio(opened) }
        }
    }

    /// Tells the core of JACK's transport when it changed (started, stopped, located); the
    /// patch's `transport: follow` makes the song go with it (docs/jack.md#jack-transport).
    /// - Thread: owner (the MIDI input thread).
    private func passJackTransport(of audio: AudioRack) {
        guard let reading = audio.driver.jackTransport, reading.changes != audio.seenJackTransportChanges else { return }
        audio.seenJackTransportChanges = reading.changes
        let (clock, timing) = transportClock()
        feed(.jackTransport(rolling: reading.rolling, seconds: reading.seconds, clock), timing: timing)
    }

    /// Becomes JACK's timebase master while the patch says `transport: lead` (and lets go
    /// of it when a patch no longer does), saying so once. Taking or releasing the timebase
    /// is a round trip to the server: a worker makes it, MIDI does not wait.
    /// - Thread: owner (the MIDI input thread).
    private func takeJackTimebase(for audio: AudioRack) {
        let leads = core.jackTransport == .lead
        guard leads != audio.leadsJackTransport, case .jack = audio.driver.target else { return }
        audio.leadsJackTransport = leads
        let driver = audio.driver, log = log
        slowWork.enter()
        DispatchQueue.global().async { [slowWork] in
            defer { slowWork.leave() }
            guard driver.leadJackTransport(leads) else {
                log.warning("JACK refused to make midihub its timebase master; JACK's transport keeps its own tempo and bars")
                return
            }
            if leads { log.info("transport: leading JACK's transport (midihub is its timebase master)") }
        }
    }

    /// Moves JACK's transport where the hub's went (`transport: lead`).
    /// - Thread: owner.
    func leadJackTransport(to status: TransportStatus) {
        guard core.jackTransport == .lead, let audio, audio.leadsJackTransport else { return }
        audio.driver.moveJackTransport(rolling: status.state == "playing", seconds: status.seconds)
    }

    /// One line a second at most while the device underruns (the render thread fell behind
    /// it: a busy machine, a higher-priority task on its core): how many since the last
    /// line, and in all since the device opened. The driver recovers from each by itself.
    /// - Thread: owner (the MIDI input thread).
    private func reportUnderruns(of audio: AudioRack) {
        let now = HostTime.now()
        guard now - audio.lastUnderrunCheck >= 1 else { return }
        audio.lastUnderrunCheck = now
        let total = audio.driver.counters.underruns
        guard total > audio.reportedUnderruns else { return }
        let new = total - audio.reportedUnderruns, device = audio.driver.settings.deviceName
        if case .jack = audio.driver.target {
            log.warning("audio: \(new) xruns in JACK (a client, maybe \(device.dropFirst("jack:".count)), was late for its period; \(total) "
                        + "since it joined); the sound goes on")
        } else {
            log.warning("audio: \(new) underruns on \(device) (the render thread fell behind the device; \(total) since it opened); "
                        + "the sound goes on")
        }
        audio.reportedUnderruns = total
    }

    /// One line when the SoundFont's file shrank or went while it played: its instruments
    /// play silence where the file was cut, and the hub goes on (one atomic load a turn).
    /// - Thread: owner (the MIDI input thread).
    private func reportSoundFontChange() {
        guard !reportedSoundFontChange, let font = catalog?.font, font.sampleData.fileChanged else { return }
        reportedSoundFontChange = true
        log.warning("the SoundFont \(options.soundFont ?? font.name) changed on disk while in use: its instruments play "
                    + "silence where the file was cut (fix: put the file back and restart midihub serve)")
    }

    /// Plays on the device the worker opened again, or schedules the next try.
    /// - Thread: owner.
    private func adoptReopenedAudio(_ opened: Result<AudioDriver, PCMError>) {
        reopeningAudio = false
        guard let audio else { return }
        do {
            if let warning = try audio.adopt(try opened.get()) { log.warning(warning) }
            audioRetryDue = nil
            lastAudioReopenFailure = nil
            logPlaying(audio.driver)
        } catch {
            audioRetryDue = HostTime.now() + Self.audioRetryInterval
            let failure = "\(error)"
            guard failure != lastAudioReopenFailure else { return }
            lastAudioReopenFailure = failure
            log.warning("cannot open the audio device again: \(failure); retrying every \(Int(Self.audioRetryInterval.seconds)) s")
        }
    }
}
