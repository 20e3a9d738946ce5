import ALSA
import Control
import Dispatch
import Foundation
import Hub
import MIDICore
import SetupViews
import Transport

/// The daemon's side of `HubCore`: it hands the core every input (`feed`, `command`) with the
/// time — or the transport's clock — it read for it, flushes the MIDI the core sends, and
/// carries out the effects that come back (`carryOut`): ALSA, JACK, the audio rack, the log,
/// the control server's events, the state writer, workers for the disk.
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Hands `input` to the core and carries out its effects; what the core sends is flushed.
    /// A refusal (only commands refuse) is logged as a warning.
    /// - Parameter timing: the transport's timing read with the input's clock, for the events
    ///   it hands out (`nil`: read again if any).
    /// - Thread: owner.
    func feed(_ input: HubInput, timing: TransportTiming? = nil) {
        do {
            try command(input, timing: timing)
        } catch {
            log.warning(error.description)
        }
    }

    /// `feed` for a control request: a refusal is thrown, as the control protocol's error.
    /// - Thread: owner.
    func command(_ input: HubInput, timing: TransportTiming? = nil) throws(ControlError) {
        OwnerThread.assertOnOwner("HubDaemon.command")
        var sink = makeSink()
        var effects: [HubEffect] = []
        do {
            try core.handle(input, into: &sink, effects: &effects)
        } catch {
            flush(sink)
            throw ControlError(error)
        }
        flush(sink)
        if case .tick = input, effects.isEmpty {} else { viewDirty = true }
        carryOut(effects, timing: timing)
    }

    /// Moves the transport now (the clock read here); a refusal is thrown.
    /// - Thread: owner.
    func moveTransport(_ input: TransportInput) throws(ControlError) {
        let (clock, timing) = transportClock()
        try command(.transport(input, clock), timing: timing)
    }

    /// `moveTransport` where a refusal is only logged (a take's start or end, the master's word).
    func runTransport(_ input: TransportInput) {
        let (clock, timing) = transportClock()
        feed(.transport(input, clock), timing: timing)
    }

    /// A live message from the port at `address`, which arrived at `time`: into the core on
    /// the MIDI path (what it routes into `sink`); the effects of a mapped control are carried
    /// out at once (a parameter lands at the frame of `time`).
    /// - Thread: owner (the MIDI input thread).
    func routeLive(_ message: MIDIMessage, from address: PortAddress, at time: HostTime, into sink: inout DaemonSink) {
        OwnerThread.assertOnOwner("HubDaemon.routeLive")
        liveEffects.removeAll(keepingCapacity: true)
        try? core.handle(.midi(message, from: address, at: time), into: &sink, effects: &liveEffects)
        if !liveEffects.isEmpty {
            viewDirty = true
            carryOut(liveEffects)
        }
    }

    /// The local time that names a take (`2026-11-25-183012`).
    /// - Thread: any.
    static func takeStamp() -> String {
        takeStampFormat.string(from: Date())
    }

    /// `takeStamp()` when a take is being recorded (an input may end it), else nothing: no
    /// date is formatted for a trigger press, a transport request or a turn that cannot end
    /// one, and while recording, once a second at most (each turn's tick carries it).
    /// - Thread: owner.
    func stampIfRecording() -> String {
        guard core.turnReading.isRecording else { return "" }
        let second = time(nil)
        if second != lastTakeStamp.second { lastTakeStamp = (second, Self.takeStamp()) }
        return lastTakeStamp.stamp
    }

    private static let takeStampFormat: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        return formatter
    }()

    /// Does what `HubCore` asks, in order.
    /// - Parameter timing: the transport's timing of the input's clock, for `schedule`.
    /// - Thread: owner.
    func carryOut(_ effects: [HubEffect], timing: TransportTiming? = nil) {
        var rewired = false
        for effect in effects {
            switch effect {
            case .installProgram(let graph, let stopped, let routes):
                installProgram(graph, stopped: stopped, routes: routes)
            case .setNodeParameter(let node, let parameter, let value, let time):
                audio?.setParameter(node, parameter, to: value, at: time)
            case .setResolvedParameter(let node, let index, let parameter, let value, let time):
                audio?.setParameter(atIndex: index, of: node, parameter, to: value, at: time)
            case .setEngineTempo(let beatsPerMinute):
                audio?.driver.tempo = beatsPerMinute
            case .linkExternalNodes:
                prepareJackOutputs()
                linkExternalNodes()
            case .nodeRemoved(let id):
                log.publish(.nodeGone(node: id, reason: .removed))
            case .parameterChanged(let node, let parameter, let value):
                log.publish(.parameterChanged(node: node, parameter: parameter, value: Double(value)))
            case .loadPatchFile(let path, let scene):
                loadPatch(at: path, for: scene)
            case .triggerFired(let name):
                log.publish(.triggerFired(trigger: name))
            case .playFile(let path, let trigger):
                playSequence(at: path, trigger: trigger)
            case .sendBytes(let bytes, let selector):
                send(bytes, to: selector)
            case .sceneChanged(let scene):
                log.info("scene \(scene)")
                log.publish(.sceneChanged(scene: scene))
            case .ports(let effect):
                rewired = carryOut(effect) || rewired
            case .listPorts:
                syncPorts()
            case .portLeft(let gone, let nodes):
                portLeft(gone, releasedNotesAt: nodes)
            case .feedback(let mapping, let messages):
                for port in feedbackPorts(of: mapping) {
                    guard let address = SeqAddress(port.address) else { continue }
                    for message in messages { receivers.send(message, to: address) }
                }
            case .schedule(let events):
                play(events, timing ?? transportClock().timing)
            case .dropScheduled:
                dropScheduled()
            case .timeline(let points):
                guard let audio, audio.renderedTime != nil else { continue }
                for point in points { audio.scheduleTimeline(point.host, at: point.time) }
            case .transportChanged:
                leadJackTransport(to: publishTransport())
            case .writeTake(let file, let name, let saying):
                writeTake(file, named: name, saying: saying)
            case .learnEnded(let timedOut):
                log.publish(.learnEnded(reason: timedOut ? .timedOut : .cancelled))
            case .mappingLearned(let mapping):
                let summary = core.snapshot.summary(of: mapping)
                log.info("learned " + MappingSummaries.line(summary))
                log.publish(.mappingLearned(summary))
            case .log(let line):
                log.info(line)
            case .warning(let line):
                log.warning(line)
            case .network(let settings):
                network.apply(settings)
                osc.apply(settings.osc)
            case .save(let state):
                stateWriter.submit(state)
            }
        }
        if rewired { refreshPorts() }
    }

    /// Swaps the program for `graph` in (nodes in `stopped` fade out), or opens the sound card
    /// for it on a worker when no audio runs (`startAudioLater`).
    private func installProgram(_ graph: HubGraph, stopped: [GraphNode], routes: AudioRoutes?) {
        guard let audio else { return startAudioLater() }
        do {
            for warning in try audio.install(graph, stopped: stopped, routes: routes) { log.warning(warning) }
        } catch {
            log.error("cannot restart audio: \(error)")
        }
    }

    /// A `send` trigger: `bytes` to the ALSA ports `selector` names (midihub's own left out).
    private func send(_ bytes: [UInt8], to selector: String) {
        for destination in triggerPorts(selector) {
            guard let address = SeqAddress(destination.address) else { continue }
            var parser = MIDIParser()
            for message in parser.parse(bytes) { receivers.send(message, to: address) }
        }
    }
}

/// - Thread: any (a plain value).
extension ControlError {
    /// The control protocol's error for an input `HubCore` refused.
    init(_ refusal: HubRefusal) {
        let code: ControlErrorCode = switch refusal.kind {
        case .unknownNode: .unknownNode
        case .unknownParameter: .unknownParameter
        case .invalidValue: .invalidValue
        case .unknownScene: .unknownScene
        case .unknownTrigger: .unknownTrigger
        case .triggerDisabled: .triggerDisabled
        case .noSequence: .noSequence
        case .unknownPosition: .unknownPosition
        case .followingClock: .followingClock
        case .badParams: .badParams
        case .unknownWidget: .unknownWidget
        case .readOnly: .readOnly
        case .stale: .stale
        }
        self.init(code, refusal.message, fix: refusal.fix)
    }
}
