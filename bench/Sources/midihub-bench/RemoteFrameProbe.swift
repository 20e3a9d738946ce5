import AudioHost
import Control
import Foundation
import MIDICore
import RenderCore
import Remote

/// The measurement behind the `remote-frame` rows, run inside the VM beside the `cc-frame`
/// rows (`bench/vm/cc-frame.bench.sh`): `ControllerFrameProbe`'s render path and probe, with
/// each pair's parameter move sent as a remote's `widgets.set` instead of read from a
/// controller. The note is staged with the moment the move is sent as its arrival; the move
/// goes over a WebSocket to the remote (`RemoteServer`, in this process), its bridge to a
/// control socket (`ControlServer`), and a handler that hands it to the owner, which pushes
/// it into the live ring at once with the moment it got it, as the daemon's owner does a
/// control client's move (`AudioRack.setParameter` with no time). The distance in a pair is
/// what the trip adds before the move lands; the anchor is the same move sent straight to the
/// control socket (`ControlClient`). Writes one line per path:
/// `remote-PATH period=P pairs=N max_delta=F median_delta=F mean_offset=F`.
enum RemoteFrameProbe {
    static let period = 256

    /// - Thread: main (starts and stops the render thread and the servers).
    static func run(device: String) throws -> [String] {
        let folder = NSTemporaryDirectory() + "midihub-bench-remote-\(getpid())"
        let hub = WidgetOwner()
        let server = ControlServer(path: ControlSocketPath(directory: folder), handler: hub)
        try server.start()
        defer { server.stop() }
        let token = RemoteToken.random()
        let remote = RemoteServer(address: ListenAddress(port: 0), socket: server.path, token: token)
        let address = try remote.start()
        defer { remote.stop() }

        let webSocket = try WebSocketLine(port: address.port, pathAndQuery: "\(RemoteServer.webSocketPath)?token=\(token.text)")
        let socket = try ControlClient(path: server.path)
        let paths: [(name: String, send: (Double) throws -> Void)] = [
            ("remote-ws", { value in
                try webSocket.send(#"{"id":1,"request":"widgets.set","params":{"widget":"probe.position","value":\#(value)}}"#)
                _ = try webSocket.receive()
            }),
            ("remote-socket", { value in _ = try socket.setWidget("probe.position", to: value) }),
        ]
        return try paths.map { path in
            let result = try ControllerFrameProbe.measure(device: device, period: period) { pair, arrival, live in
                hub.owner.sync {
                    hub.live = live
                    live.stage(.noteOn(channel: 0, note: 60, velocity: 100), arrival: arrival)
                    live.publish()
                }
                try path.send(Double(pair % 128))
            }
            return "\(path.name) " + result.fields
        }
    }
}

/// The control socket's handler for the probe: `widgets.set` pushes the probe's parameter
/// into the live ring on the owner's queue, the one producer of the ring; every other request
/// is refused.
///
/// - Thread: control (the server's loop); the ring only on `owner`.
private final class WidgetOwner: ControlHandler, @unchecked Sendable {
    let owner = DispatchQueue(label: "midihub-bench.owner")
    /// The driver's ring of the measurement under way (set on main between pairs).
    var live: LiveInput?

    func setWidget(_ name: String, to value: Double) throws -> WidgetSummary {
        owner.sync { _ = live?.push(.parameter(node: 0, id: 0, value: Float(value))) }
        return WidgetSummary(kind: "slider", title: name, target: name, min: 0, max: 127, value: value)
    }

    private var refused: ControlError { ControlError(.unknownRequest, "the frame probe takes widgets.set only") }
    func ports() throws -> [PortSummary] { throw refused }
    func connections() throws -> [ConnectionSummary] { throw refused }
    func nodes() throws -> [NodeSummary] { throw refused }
    func nodeTypes() throws -> [NodeSummary] { throw refused }
    func connect(_ connection: ConnectionSummary) throws { throw refused }
    func disconnect(_ connection: ConnectionSummary) throws { throw refused }
    func addNode(_ spec: NodeSpec) throws -> NodeSummary { throw refused }
    func removeNode(_ id: String) throws { throw refused }
    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary { throw refused }
    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary { throw refused }
    func loadPatch(_ source: PatchSource) throws -> GraphSummary { throw refused }
    func rules() throws -> [RuleSummary] { throw refused }
    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary] { throw refused }
    func mappings() throws -> [MappingSummary] { throw refused }
    func setMappings(_ text: String) throws -> [MappingSummary] { throw refused }
    func learn(_ request: LearnRequest) throws { throw refused }
    func cancelLearn() throws { throw refused }
    func scenes() throws -> [SceneSummary] { throw refused }
    func switchScene(_ name: String) throws -> SceneSummary { throw refused }
    func triggers() throws -> [TriggerSummary] { throw refused }
    func fireTrigger(_ name: String) throws -> TriggerSummary { throw refused }
    func loadPreset(_ load: PresetLoad) throws -> NodeSummary { throw refused }
    func savePreset(_ save: PresetSave) throws -> PresetSummary { throw refused }
    func widgets() throws -> [WidgetSummary] { throw refused }
    func pressWidget(_ name: String) throws -> WidgetSummary { throw refused }
    func releaseWidget(_ name: String) throws -> WidgetSummary { throw refused }
    func transport(_ request: TransportRequest) throws -> TransportStatus { throw refused }
    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary { throw refused }
    func networkStatus() throws -> [NetworkSessionSummary] { throw refused }
    func networkConnect(_ host: String) throws { throw refused }
    func networkDisconnect(_ peer: String) throws { throw refused }
}

extension BenchmarkRow {
    /// A widget move over a WebSocket against a note staged at the moment it was sent, at the
    /// render thread (`RemoteFrameProbe`): the median or largest distance in frames, against
    /// the same move sent on the control socket (lower is better).
    @Sendable static func remoteFrame(_ context: BenchmarkContext, statistic: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "cc-frame")
        let remote = try results.run("remote-ws"), socket = try results.run("remote-socket")
        return BenchmarkResult(
            title: "widget move → the frame it lands on vs a note staged as it was sent, \(statistic) distance "
                + "(\(Int(try remote.value("pairs"))) moves over a WebSocket, period \(remote.text("period")) frames, snd-dummy, VM)",
            unit: "frames", midihub: try remote.value("\(statistic)_delta"),
            anchorName: "control socket", anchor: try socket.value("\(statistic)_delta"),
            lowerIsBetter: true)
    }
}
