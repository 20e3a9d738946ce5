import AudioHost
import Control
import Foundation
import Glibc
import MIDICore
import OSC
import OSCSurface
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
/// control socket (`ControlClient`). A third path sends each move as an OSC bundle whose time
/// tag is the note's moment, over UDP to an `OSCServer` (in this process) on the same
/// control socket: the server hands it on with that moment (`parameters.set`'s `at`) and the
/// owner pushes it with it, so it lands on the note's frame when the trip is shorter than the
/// live path's one block. Writes one line per path:
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

        guard let oscServer = OSCServer(address: ListenAddress(port: 0), socket: server.path, log: { _ in }) else {
            throw BenchmarkError(description: "no descriptors for the OSC server")
        }
        let oscAddress = try oscServer.start()
        defer { oscServer.stop() }
        let osc = try OSCBundleSender(port: oscAddress.port)
        osc.send("/node/probe/position", 0, at: .now())  // the server reads the probe's addresses once, before the pairs
        usleep(500_000)

        let webSocket = try WebSocketLine(port: address.port, pathAndQuery: "\(RemoteServer.webSocketPath)?token=\(token.text)")
        let socket = try ControlClient(path: server.path)
        let paths: [(name: String, send: (Double, HostTime) throws -> Void)] = [
            ("remote-ws", { value, _ in
                try webSocket.send(#"{"id":1,"request":"widgets.set","params":{"widget":"probe.position","value":\#(value)}}"#)
                _ = try webSocket.receive()
            }),
            ("remote-socket", { value, _ in _ = try socket.setWidget("probe.position", to: value) }),
            ("remote-osc", { value, moment in osc.send("/node/probe/position", value, at: moment) }),
        ]
        return try paths.map { path in
            let result = try ControllerFrameProbe.measure(device: device, period: period) { pair, arrival, live in
                hub.owner.sync {
                    hub.live = live
                    live.stage(.noteOn(channel: 0, note: 60, velocity: 100), arrival: arrival)
                    live.publish()
                }
                try path.send(Double(pair % 128), arrival)
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

    /// An OSC server's move: pushed with its moment (`at`), as the daemon's owner does.
    func setParameter(_ assignment: ParameterAssignment) throws -> ParameterSummary {
        owner.sync {
            _ = live?.push(.parameter(node: 0, id: 0, value: Float(assignment.value)),
                           arrival: assignment.at.map { HostTime(nanoseconds: $0) } ?? .now())
        }
        return Self.position
    }

    private static let position = ParameterSummary(id: 0, name: "position", min: 0, max: 127, default: 0, unit: "generic", value: 0)

    /// The probe node, for the OSC server's address space.
    func nodes() throws -> [NodeSummary] {
        [NodeSummary(id: "probe", name: "probe", kind: "instrument", subtype: "prob", manufacturer: "bnch", version: "1",
                     parameters: [Self.position])]
    }

    func scenes() throws -> [SceneSummary] { [] }
    func triggers() throws -> [TriggerSummary] { [] }
    func widgets() throws -> [WidgetSummary] { [] }

    private var refused: ControlError { ControlError(.unknownRequest, "the frame probe takes widgets.set and parameters.set only") }
    func ports() throws -> [PortSummary] { throw refused }
    func connections() throws -> [ConnectionSummary] { throw refused }
    func nodeTypes() throws -> [NodeSummary] { throw refused }
    func connect(_ connection: ConnectionSummary) throws { throw refused }
    func disconnect(_ connection: ConnectionSummary) throws { throw refused }
    func addNode(_ spec: NodeSpec) throws -> NodeSummary { throw refused }
    func removeNode(_ id: String) throws { throw refused }
    func replaceNode(_ id: String, with spec: NodeSpec) throws -> NodeSummary { throw refused }
    func loadPatch(_ source: PatchSource) throws -> GraphSummary { throw refused }
    func rules() throws -> [RuleSummary] { throw refused }
    func setRules(_ rules: [RuleSummary]) throws -> [RuleSummary] { throw refused }
    func mappings() throws -> [MappingSummary] { throw refused }
    func setMappings(_ text: String) throws -> [MappingSummary] { throw refused }
    func learn(_ request: LearnRequest) throws { throw refused }
    func cancelLearn() throws { throw refused }
    func switchScene(_ name: String) throws -> SceneSummary { throw refused }
    func fireTrigger(_ name: String) throws -> TriggerSummary { throw refused }
    func loadPreset(_ load: PresetLoad) throws -> NodeSummary { throw refused }
    func savePreset(_ save: PresetSave) throws -> PresetSummary { throw refused }
    func pressWidget(_ name: String) throws -> WidgetSummary { throw refused }
    func releaseWidget(_ name: String) throws -> WidgetSummary { throw refused }
    func transport(_ request: TransportRequest) throws -> TransportStatus { throw refused }
    func recordAudio(_ request: AudioRecordRequest) throws -> AudioRecordingSummary { throw refused }
    func networkStatus() throws -> [NetworkSessionSummary] { throw refused }
    func networkConnect(_ host: String) throws { throw refused }
    func networkDisconnect(_ peer: String) throws { throw refused }
}

extension BenchmarkRow {
    /// An OSC bundle timed at a note's moment against that note, at the render thread
    /// (`RemoteFrameProbe`): the median or largest distance in frames (goal 0: the frame its
    /// time tag names), against the same move sent untimed on the control socket.
    @Sendable static func oscBundleFrame(_ context: BenchmarkContext, statistic: String) throws -> BenchmarkResult {
        try frameDistance(context, path: "remote-osc", statistic: statistic, anchorName: "control socket, untimed") { pairs, period in
            "OSC bundle → the frame it lands on vs a note at its time tag, \(statistic) distance "
                + "(\(pairs) bundles over UDP, period \(period) frames, snd-dummy, VM)"
        }
    }

    /// A widget move over a WebSocket against a note staged at the moment it was sent, at the
    /// render thread (`RemoteFrameProbe`): the median or largest distance in frames, against
    /// the same move sent on the control socket (lower is better).
    @Sendable static func remoteFrame(_ context: BenchmarkContext, statistic: String) throws -> BenchmarkResult {
        try frameDistance(context, path: "remote-ws", statistic: statistic, anchorName: "control socket") { pairs, period in
            "widget move → the frame it lands on vs a note staged as it was sent, \(statistic) distance "
                + "(\(pairs) moves over a WebSocket, period \(period) frames, snd-dummy, VM)"
        }
    }

    /// The `statistic` distance of `path`'s pairs against `remote-socket`'s in the same run,
    /// titled by `title(pairs, period)`.
    private static func frameDistance(_ context: BenchmarkContext, path: String, statistic: String, anchorName: String,
                                      title: (Int, String) -> String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "cc-frame")
        let run = try results.run(path), socket = try results.run("remote-socket")
        return BenchmarkResult(
            title: title(Int(try run.value("pairs")), run.text("period")),
            unit: "frames", midihub: try run.value("\(statistic)_delta"),
            anchorName: anchorName, anchor: try socket.value("\(statistic)_delta"),
            lowerIsBetter: true)
    }
}

/// Sends OSC bundles over UDP to 127.0.0.1:`port`, each with a time tag.
///
/// - Thread: main (the probe's).
private struct OSCBundleSender {
    let descriptor: Int32
    var address = sockaddr_in()

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        guard descriptor >= 0 else { throw BenchmarkError(description: "no UDP socket for OSC") }
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
    }

    /// A bundle with one `f` message, its time tag the wall-clock moment of `moment`.
    func send(_ path: String, _ value: Double, at moment: HostTime) {
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let wallNow = Int64(wall.tv_sec) * 1_000_000_000 + Int64(wall.tv_nsec)
        let tag = OSCTimeTag(unixNanoseconds: wallNow - (HostTime.now().nanoseconds - moment.nanoseconds))
        let bytes = OSCPacket.bundle(OSCBundle(timeTag: tag, [.message(OSCMessage(path, [.float(Float(value))]))])).encoded()
        var destination = address
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &destination) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
    }
}
