import Foundation

extension BenchmarkRow {
    /// The web remote's rows (issue 26), measured in the VM: where a move lands at the render
    /// thread (`RemoteFrameProbe`, beside the `cc-frame` rows), then what `bench/vm/remote.bench.sh`
    /// measured against one `midihub serve --remote` (`remote.results`).
    static let remoteInVM: [BenchmarkRow] = [
        BenchmarkRow(name: "remote-frame-median", run: { try remoteFrame($0, statistic: "median") }),
        BenchmarkRow(name: "remote-frame-max", run: { try remoteFrame($0, statistic: "max") }),
        BenchmarkRow(name: "remote-move-p50", run: { try remoteMove($0, percentile: "p50") }),
        BenchmarkRow(name: "remote-move-p99", run: { try remoteMove($0, percentile: "p99") }),
        BenchmarkRow(name: "remote-hub-latency-p99-with-clients", run: remoteHubLatencyWithClients),
        BenchmarkRow(name: "remote-memory", run: remoteMemory),
    ]

    /// The OSC server's rows (issue 42), measured in the VM: where a timed bundle's move lands
    /// at the render thread (`RemoteFrameProbe`), then what `bench/vm/osc.bench.sh` measured
    /// against one `midihub serve --osc` (`osc.results`).
    static let oscInVM: [BenchmarkRow] = [
        BenchmarkRow(name: "osc-bundle-frame-median", run: { try oscBundleFrame($0, statistic: "median") }),
        BenchmarkRow(name: "osc-bundle-frame-max", run: { try oscBundleFrame($0, statistic: "max") }),
        BenchmarkRow(name: "osc-move-p50", run: { try oscMove($0, percentile: "p50") }),
        BenchmarkRow(name: "osc-move-p99", run: { try oscMove($0, percentile: "p99") }),
        BenchmarkRow(name: "osc-midi-p50", run: { try oscMIDI($0, percentile: "p50") }),
        BenchmarkRow(name: "osc-midi-p99", run: { try oscMIDI($0, percentile: "p99") }),
        BenchmarkRow(name: "osc-hub-latency-p99-with-surfaces", run: oscHubLatencyWithSurfaces),
    ]

    /// An OSC parameter set (UDP) to its `parameter-changed` at a control-socket watcher,
    /// against the same set as `parameters.set` on the control socket (lower is better).
    @Sendable static func oscMove(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        try move(context, bench: "osc", run: "osc-move", percentile: percentile) { moves in
            "OSC parameter set → parameter-changed at a control client, \(percentile) (\(moves) moves 50 ms apart, UDP on loopback, VM)"
        }
    }

    /// A note from an OSC surface (`/midi m` over UDP) to the ALSA port the hub routes it to,
    /// against the same notes from an ALSA client on the same route in the same daemon: the
    /// control protocol carries no MIDI, so the hub's own hop is what OSC is measured against
    /// (lower is better).
    @Sendable static func oscMIDI(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "osc")
        let osc = try results.run("osc-midi"), alsa = try results.run("hub-latency")
        return BenchmarkResult(
            title: "OSC /midi note → the ALSA port it is routed to, \(percentile) (\(Int(try osc.value("sent"))) note-ons at 1 kHz, "
                + "UDP on loopback; lost: OSC \(Int(try osc.value("lost"))), ALSA \(Int(try alsa.value("lost"))); VM)",
            unit: "µs", midihub: try osc.value("\(percentile)_us"),
            anchorName: "the same from an ALSA client", anchor: try alsa.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// The hub's p99 hop latency while OSC surfaces sweep a parameter, against the same daemon
    /// without them, in the same boot (lower is better; the issue's goal: at most 1.2×).
    @Sendable static func oscHubLatencyWithSurfaces(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "osc")
        let swept = try results.run("hub-latency-surfaces"), idle = try results.run("hub-latency")
        let sweep = try results.run("sweep")
        let seconds = max(try sweep.value("seconds"), 1), surfaces = try sweep.value("surfaces")
        let slower = try swept.value("p99_us") / idle.value("p99_us")
        return BenchmarkResult(
            title: "hub hop latency p99 while \(Int(surfaces)) OSC surfaces sweep a parameter (asked \(sweep.text("rate"))/s each, "
                + "reached \(Int(try sweep.value("sent") / seconds / surfaces))/s each; \(Int(try sweep.value("received"))) changes "
                + "sent back; \(String(format: "%.2f", slower))× the hub's p99 without them, goal ≤ 1.2×; VM)",
            unit: "µs", midihub: try swept.value("p99_us"),
            anchorName: "without them", anchor: try idle.value("p99_us"),
            lowerIsBetter: true)
    }

    /// A widget move (`widgets.set`) from one WebSocket client to its `parameter-changed` at a
    /// second, subscribed one, against the same two clients on the control socket: what the
    /// remote's bridges add (lower is better).
    @Sendable static func remoteMove(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        try move(context, bench: "remote", run: "ws-move", percentile: percentile) { moves in
            "widget move → parameter-changed at a second client, \(percentile) (\(moves) moves 50 ms apart, WebSockets on loopback, VM)"
        }
    }

    /// Run `run`'s moves of bench `bench` against its `socket-move` run, at `percentile`,
    /// titled by `title(moves)`.
    private static func move(_ context: BenchmarkContext, bench: String, run: String, percentile: String,
                             title: (Int) -> String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: bench)
        let measured = try results.run(run), socket = try results.run("socket-move")
        return BenchmarkResult(
            title: title(Int(try measured.value("moves"))),
            unit: "µs", midihub: try measured.value("\(percentile)_us"),
            anchorName: "control socket", anchor: try socket.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// The hub's p99 hop latency with WebSocket clients subscribed to every event (one moving
    /// a slider, every move an event to each), against the same daemon without them, in the
    /// same boot (lower is better; the issue's goal: at most 1.2×, a ratio ≥ 0.83×).
    @Sendable static func remoteHubLatencyWithClients(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "remote")
        let crowded = try results.run("hub-latency-crowd"), idle = try results.run("hub-latency")
        let crowd = try results.run("crowd"), cpu = try results.run("daemon-cpu")
        let clients = Int(try crowd.value("clients"))
        let slower = try crowded.value("p99_us") / idle.value("p99_us")
        return BenchmarkResult(
            title: "hub hop latency p99 with \(clients) WebSocket clients subscribed to everything, one moving a slider "
                + "\(crowd.text("rate"))/s (\(Int(try crowd.value("events"))) events read, \(Int(try crowd.value("dropped"))) "
                + "dropped; the daemon's CPU during the run \(String(format: "%.1f", try cpu.value("crowd_ms") / 1000)) s, "
                + "without them \(String(format: "%.1f", try cpu.value("idle_ms") / 1000)) s; "
                + "\(String(format: "%.2f", slower))× the hub's p99 without them, goal ≤ 1.2×; VM)",
            unit: "µs", midihub: try crowded.value("p99_us"),
            anchorName: "without them", anchor: try idle.value("p99_us"),
            lowerIsBetter: true)
    }

    /// The daemon's resident memory with the crowd of WebSocket clients connected against
    /// with none; the title gives the difference per client (lower is better).
    @Sendable static func remoteMemory(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let rss = try HubResults.load(context, bench: "remote").run("remote-rss")
        let clients = try rss.value("clients"), none = try rss.value("none_kb"), crowd = try rss.value("crowd_kb")
        return BenchmarkResult(
            title: "midihub serve RSS with \(Int(clients)) WebSocket clients subscribed "
                + "(\(String(format: "%.0f", (crowd - none) / clients)) kB per client)",
            unit: "MB", midihub: crowd / 1024,
            anchorName: "with none", anchor: none / 1024,
            lowerIsBetter: true)
    }
}
