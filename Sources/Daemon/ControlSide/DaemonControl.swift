import ALSA
import AudioHost
import Control
import Foundation
import Hub
import MIDICore
import RtMidiBackend
import Sequencer
import Transport
import SetupViews

/// Answers control requests for a running `HubDaemon`. Lists are built here from the view of
/// the state the owner published last (`HubView`), without entering the owner. A change is
/// parsed and checked here against that view, and reaches the owner (the MIDI input thread,
/// `HubDaemon.perform`, between two batches of MIDI) as a ready value it applies to the state
/// as it is then: a graph edit is applied again to the current graph (the rebase), mappings
/// checked against a graph rebuilt since are prepared again.
///
/// Endpoints are ALSA ports (as the CLI names them: `20:0`, names, prefixes), JACK ports
/// as `jack:CLIENT:PORT`, or graph nodes as `node:ID`. A connection between two ports is a
/// sequencer subscription, a connection the JACK bridge carries or one made in JACK (and a
/// runtime edit remembered by port identity); one between two nodes is a graph route.
///
/// - Thread: control (the server's thread; `loadPatch` by path and `transport` load and
///   playlist on its file thread, `ControlHandler`).
final class DaemonControl: ControlHandler, @unchecked Sendable {
    unowned let daemon: HubDaemon

    init(daemon: HubDaemon) {
        self.daemon = daemon
    }

    /// The view of the state the owner published last.
    private var view: HubView { daemon.view.value }

    func ports() throws -> [PortSummary] {
        view.portSummaries()
    }

    func connections() throws -> [ConnectionSummary] {
        view.connections()
    }

    func nodes() throws -> [NodeSummary] {
        view.nodes()
    }

    func nodeTypes() throws -> [NodeSummary] {
        GraphSummaries.types()
    }

    func connect(_ connection: ConnectionSummary) throws {
        try durably { try edit(connection, connected: true) }
    }

    func disconnect(_ connection: ConnectionSummary) throws {
        try durably { try edit(connection, connected: false) }
    }

    func addNode(_ spec: NodeSpec) throws -> NodeSummary {
        try durably {
            let graph = view.graph
            let id = spec.id ?? Self.freshID(for: spec.type, in: graph)
            try daemon.applyGraphEdit(.add(try spec.graphNode(id: id, registry: daemon.registry)))
            return try view.node(id)
        }
    }

    func removeNode(_ id: String) throws {
        try durably { try daemon.applyGraphEdit(.remove(id)) }
    }

    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary {
        try durably {
            let node = try spec.graphNode(id: id, registry: daemon.registry)
            try daemon.applyGraphEdit(.replace(id, with: node.body, parameters: node.parameters))
            return try view.node(id)
        }
    }

    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary {
        if let file = try setFile(assignment) { return file }
        return try daemon.perform { [self] in
            // A moment still to come is now: the live ring delivers in order, so a value stamped
            // ahead would hold back every event behind it (hold the request until then instead).
            let moment = assignment.at.map { min(HostTime(nanoseconds: $0), HostTime.now()) }
            let choices = assignment.choice == nil ? nil
                : (try? view.node(assignment.node))?.parameters.first { $0.name == assignment.parameter }?.choices
            let number = try assignment.number(among: choices)
            let (info, value) = try daemon.setParameter(node: assignment.node, assignment.parameter, to: Float(number), at: moment)
            return GraphSummaries.summary(info, value: value)
        }
    }

    func loadPatch(_ source: PatchSource) throws -> GraphSummary {
        try durably { try installPatch(source) }
    }

    private func installPatch(_ source: PatchSource) throws -> GraphSummary {
        if let path = source.path {
            try daemon.installPatchFile(at: path) { [self] in daemon.log.info("loaded patch \(path)") }
            return view.graphSummary()
        }
        guard let text = source.text else {
            throw ControlError(.badParams, "patch.load needs a path or a text", fix: "give \"path\" or \"text\"")
        }
        let patch: Patch
        do {
            patch = try Patch.parse(yaml: text, file: "<patch>", registry: daemon.registry)
        } catch {
            throw ControlError(.invalidPatch, error.problem, fix: error.oneLineFix)
        }
        try daemon.install(patch) { [self] in daemon.log.info("loaded patch (text)") }
        // A patch given as text has no file: none is watched from now on.
        daemon.patchFile.watch(nil)
        return view.graphSummary()
    }

    func rules() throws -> [RuleSummary] {
        view.rules()
    }

    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary] {
        let parsed = try GraphSummaries.connectionRules(rules)
        return try durably {
            try daemon.perform { [self] in daemon.setRules(parsed) }
            return view.rules()
        }
    }

    func mappings() throws -> [MappingSummary] {
        view.mappings()
    }

    /// Parses and checks the mappings here, against the view's graph; the owner only starts
    /// them. When the graph was rebuilt meanwhile (another request, a scene's patch), they
    /// are checked again against the new one, up to `preparations` times.
    func setMappings(_ text: String) throws -> [MappingSummary] {
        try durably {
            for attempt in 1...Self.preparations {
                let prepared = view
                let list: [Mapping]
                do {
                    list = try Patch.parseMappings(yaml: text, file: "<mappings>", graph: prepared.graph, registry: daemon.registry)
                } catch let error as PatchError {
                    throw ControlError(.invalidPatch, error.problem, fix: error.oneLineFix)
                }
                do {
                    try daemon.perform { [self] in
                        try daemon.replaceMappings(list, checkedAgainst: prepared.hub.graphRevision)
                        daemon.log.info("mappings set (\(list.count))")
                    }
                } catch let error as ControlError where error.code == .stale && attempt < Self.preparations {
                    continue
                }
                break
            }
            return view.mappings()
        }
    }

    /// How many times a request is prepared against a newer view before it gives up.
    static let preparations = 4

    func learn(_ request: LearnRequest) throws {
        let seconds = request.seconds ?? 30
        guard (1...600).contains(seconds) else {
            throw ControlError(.invalidValue, "learn waits 1…600 seconds, not \(seconds)", fix: "give \"seconds\" from 1 to 600")
        }
        try daemon.perform { [self] in try daemon.learn(node: request.node, request.parameter, seconds: seconds) }
    }

    func cancelLearn() throws {
        try daemon.perform { [self] in daemon.cancelLearning() }
    }

    func scenes() throws -> [SceneSummary] {
        view.scenes()
    }

    func switchScene(_ name: String) throws -> SceneSummary {
        try durably {
            let scene = try daemon.perform { [self] in try daemon.switchScene(named: name) }
            return view.scenes().first { $0.name == scene.name }!
        }
    }

    func triggers() throws -> [TriggerSummary] {
        view.triggers(at: HostTime.now())
    }

    func fireTrigger(_ name: String) throws -> TriggerSummary {
        try daemon.perform { [self] in try daemon.fireTrigger(named: name, at: HostTime.now()) }
        return view.triggers(at: HostTime.now()).first { $0.name == name }!
    }

    func widgets() throws -> [WidgetSummary] {
        view.widgets(at: HostTime.now())
    }

    func setWidget(_ name: String, to value: Double) throws -> WidgetSummary {
        try act(on: name, .set(value))
    }

    func pressWidget(_ name: String) throws -> WidgetSummary {
        try act(on: name, .press)
    }

    func releaseWidget(_ name: String) throws -> WidgetSummary {
        try act(on: name, .release)
    }

    /// A gesture on a widget, on the owner; a scene it switches is on disk before the answer,
    /// as for `scenes.switch` (a parameter it moves is not waited for, as for `parameters.set`).
    private func act(on name: String, _ gesture: WidgetGesture) throws -> WidgetSummary {
        let (action, widget) = try daemon.perform { [self] in try daemon.act(on: name, gesture) }
        if case .switchScene = action { daemon.stateWriter.flush() }
        return view.summary(of: widget, at: HostTime.now())
    }

    func transport(_ request: TransportRequest) throws -> TransportStatus {
        switch request.action {
        case .load:
            let song = try Self.readSong(request.path, for: "transport load")
            return try daemon.perform { [self] in daemon.loadPlaylist([song]) }
        case .playlist:
            guard let paths = request.paths, !paths.isEmpty else {
                throw ControlError(.badParams, "transport playlist needs \"paths\": the files' absolute paths, in order",
                                   fix: "e.g. {\"action\":\"playlist\",\"paths\":[\"/home/me/a.mid\",\"/home/me/b.mid\"]}")
            }
            let songs = try paths.map { path throws(ControlError) in try Self.readSong(path, for: "transport playlist") }
            return try daemon.perform { [self] in daemon.loadPlaylist(songs) }
        default:
            return try daemon.perform { [self] in try daemon.transport(request) }
        }
    }

    /// Reads and parses a sequence here, on the control side: the disk never holds up MIDI.
    /// - Throws: `ControlError` for a relative path, a file that cannot be read or parsed.
    private static func readSong(_ path: String?, for action: String) throws(ControlError) -> Song {
        guard let path, path.hasPrefix("/") else {
            throw ControlError(.badParams, "\(action) needs the file's absolute path",
                               fix: "give \"path\", e.g. /home/me/song.mid ('midihub \(action)' resolves it)")
        }
        let file: MIDIFile
        do {
            file = try SequenceFileReader.read(path: path)
        } catch {
            throw ControlError(error.isBadInput ? .badSequence : .failed, error.problem, fix: error.fix)
        }
        let song = Song(file: file, name: HubCore.songName(ofPath: path))
        if let refusal = song.refusal(path: path) { throw ControlError(.badSequence, refusal.problem, fix: refusal.fix) }
        return song
    }

    /// `audio.record`: the owner claims the recording (`HubDaemon.audioTake`) and points the
    /// tap; the WAV file is opened and, at the end, finished here, off the MIDI path.
    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary {
        if request.stop == true {
            guard let running = try daemon.perform({ [self] in releaseAudioTake() }) else {
                throw ControlError(.invalidValue, "no audio recording runs", fix: "start one with {\"path\":\"/home/me/take.wav\"}")
            }
            return try finish(running)
        }
        guard let path = request.path, path.hasPrefix("/") else {
            throw ControlError(.badParams, "audio.record needs the WAV file's absolute path, or \"stop\": true",
                               fix: "give \"path\", e.g. /home/me/take.wav ('midihub record take.wav' resolves it)")
        }
        let driver = try daemon.perform { [self] () throws -> AudioDriver in
            if let take = daemon.audioTake {
                throw ControlError(.invalidValue, "already recording to \(take.path)", fix: "stop it first: {\"stop\":true}")
            }
            guard let driver = try tapForRecording(request.node) else {
                throw ControlError(.failed, "the daemon plays no audio to record",
                                   fix: "start 'midihub serve' with a sound card (not --no-audio); 'midihub render' writes a WAV offline")
            }
            daemon.audioTake = AudioTake(path: path, node: request.node)
            return driver
        }
        let recorder: AudioRecorder
        do {
            recorder = try AudioRecorder(driver: driver, path: path)  // opens the file here, off the MIDI path
        } catch let error as WAVWriteError {
            _ = try? daemon.perform { [self] in releaseAudioTake() }
            throw ControlError(.failed, error.problem, fix: error.fix)
        }
        try daemon.perform { [self] in daemon.audioTake?.recorder = recorder }
        daemon.log.info("recording audio\(request.node.map { " of node '\($0)'" } ?? "") to \(path)")
        return AudioRecordingSummary(path: path, recording: true, node: request.node)
    }

    /// Ends the owner's claim on the recording and points the tap nowhere.
    /// - Returns: the take that ran, if any.
    /// - Thread: owner (the state's owner).
    private func releaseAudioTake() -> AudioTake? {
        let take = daemon.audioTake
        daemon.audioTake = nil
        if take != nil { daemon.audio?.record(nil) }
        return take
    }

    /// Points the running driver's tap at node `name` (`nil`: the master output).
    /// - Returns: the driver, or `nil` when the daemon plays no audio.
    /// - Throws: `ControlError` when `name` is no node, or a node that makes no sound.
    /// - Thread: owner (the state's owner).
    private func tapForRecording(_ name: NodeID?) throws -> AudioDriver? {
        guard let audio = daemon.audio, audio.driver.isRunning else { return nil }
        audio.record(try name.flatMap { try recordedNode($0, in: audio) })
        return audio.driver
    }

    /// The render node a recording of node `name` takes: itself, or `nil` for an output
    /// (every output plays the one master).
    /// - Thread: owner (the state's owner).
    private func recordedNode(_ name: NodeID, in audio: AudioRack) throws -> NodeID? {
        let graph = daemon.core.snapshot.graph
        guard let node = graph.node(name) else { throw HubDaemon.unknownNode(name) }
        if case .output = node.body { return audio.isRendered(name) ? name : nil }  // another device's, else the master
        guard audio.isRendered(name) else {
            let heard = graph.nodes.map(\.id).filter(audio.isRendered)
            throw ControlError(.invalidValue, "node '\(name)' (\(node.body.kindName)) makes no sound to record",
                               fix: "name an instrument, an effect or a strip" + (heard.isEmpty ? "" : ": " + heard.joined(separator: ", ")))
        }
        return name
    }

    /// Stops the audio recording, if one runs, and writes its file (the daemon stops).
    func finishAudioRecording() {
        guard let running = try? daemon.perform({ [self] in releaseAudioTake() }) else { return }
        _ = try? finish(running)
    }

    /// Finishes the take's file (here, off the MIDI path) and logs it.
    private func finish(_ take: AudioTake) throws -> AudioRecordingSummary {
        guard let recorder = take.recorder else {
            throw ControlError(.failed, "the recording to \(take.path) had not started")
        }
        do {
            let summary = try recorder.stop()
            daemon.log.info("recorded \(String(format: "%.1f", summary.seconds)) s of audio to \(summary.path)"
                + (summary.droppedFrames > 0 ? " (\(summary.droppedFrames) frames lost: the disk fell behind)" : ""))
            return AudioRecordingSummary(path: summary.path, recording: false, node: take.node, seconds: summary.seconds,
                                         droppedFrames: summary.droppedFrames)
        } catch {
            daemon.log.warning("audio recording to \(recorder.path) failed: \(error)")
            throw ControlError(.failed, "\(error)")
        }
    }

    /// Runs a structural edit (connections, nodes, rules, the patch, mappings, the scene) and
    /// returns once the state it saved is on disk: an acknowledged edit survives a crash or
    /// `kill -9` (docs/daemon.md#state). Parameter moves are not waited for (they coalesce,
    /// `StateWriter.coalescing`).
    /// - Thread: control (waits for the state writer, never for the MIDI path).
    func durably<Result>(_ edit: () throws -> Result) throws -> Result {
        let result = try edit()
        daemon.stateWriter.flush()
        return result
    }

    private func edit(_ connection: ConnectionSummary, connected: Bool) throws {
        let source = connection.sourceEndpoint, destination = connection.destinationEndpoint
        if case .node(let from) = source, case .node(let to) = destination {
            return try daemon.applyGraphEdit(connected ? .connect(Route(from, to)) : .disconnect(from, to))
        }
        try daemon.perform { [self] in
            switch (source, destination) {
            case (.node, _), (_, .node):
                throw ControlError(.badParams, "a connection joins two ports or two nodes",
                                   fix: "route a port into the graph with a source node (type 'source')")
            default:
                daemon.refreshPorts()
                let resolver = PortResolver(ports: daemon.ports.infos.values.sorted { $0.address < $1.address })
                guard let sourcePort = try port(source, sending: true, resolver),
                      let destinationPort = try port(destination, sending: false, resolver) else { return }
                daemon.feed(.connectionEdited(source: sourcePort, destination: destinationPort, connected: connected))
                daemon.apply(Connection(sourcePort.address, destinationPort.address), connected: connected, reason: "control request")
                daemon.refreshPorts()
            }
        }
    }

    /// The port `endpoint` names: a JACK port among the JACK ports (a source when
    /// `sending`, else a destination), an ALSA port through `resolver`.
    private func port(_ endpoint: Endpoint, sending: Bool, _ resolver: PortResolver) throws(ControlError) -> PortDescriptor? {
        let name = endpoint.description
        guard case .jack = endpoint else {
            return daemon.ports.descriptor(at: PortAddress(try resolve(name, resolver).address))
        }
        let role = sending ? "source (a JACK output port)" : "destination (a JACK input port)"
        let jackPorts = daemon.ports.descriptors.filter { JackPortTable.isJack($0.address) }
        guard let port = jackPorts.first(where: { JackPortTable.hubName(of: $0) == name }) else {
            let fix = jackPorts.isEmpty ? "start the JACK client that owns it (no JACK MIDI ports are present)"
                                        : "run 'midihub ports' for the JACK ports present (jack:CLIENT:PORT)"
            throw ControlError(.unknownPort, "no JACK MIDI port '\(name)'", fix: fix)
        }
        guard sending ? port.direction.canSend : port.direction.canReceive else {
            throw ControlError(.unknownPort, "'\(name)' is not a JACK MIDI \(role)", fix: "swap source and destination")
        }
        return port
    }

    private func resolve(_ name: String, _ resolver: PortResolver) throws(ControlError) -> SeqPortInfo {
        do {
            return try resolver.resolve(name)
        } catch {
            let code: ControlErrorCode = if case .ambiguous = error { .ambiguousPort } else { .unknownPort }
            throw ControlError(code, error.problem, fix: error.fix)
        }
    }

    private static func freshID(for type: String, in graph: HubGraph) -> NodeID {
        let base = type.lowercased().split(separator: " ").last.map(String.init) ?? "node"
        var index = 1
        while graph.node("\(base)\(index)") != nil { index += 1 }
        return "\(base)\(index)"
    }
}
