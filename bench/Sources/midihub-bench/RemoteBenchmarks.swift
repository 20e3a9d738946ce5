import Foundation

extension BenchmarkRow {
    /// The web remote's rows (issue 26), measured in the VM: where a move lands at the render
    /// thread (`RemoteFrameProbe`, beside the `cc-frame` rows), then what `bench/vm/remote.bench.sh`
    /// measured against one `midihub serve --remote` (`remote.results`).
    static let remoteInVM: [BenchmarkRow] = [
        BenchmarkRow(name: "remote-frame-median", run: { try remoteFrame($0, statistic: "median") }),
        BenchmarkRow(name: "remote-frame-max", run: { try remoteFrame($0, statistic: "max") }),
        BenchmarkRow(name: "osc-bundle-frame-median", run: { try oscBundleFrame($0, statistic: "median") }),
        BenchmarkRow(name: "osc-bundle-frame-max", run: { try oscBundleFrame($0, statistic: "max") }),
        BenchmarkRow(name: "remote-move-p50", run: { try remoteMove($0, percentile: "p50") }),
        BenchmarkRow(name: "remote-move-p99", run: { try remoteMove($0, percentile: "p99") }),
        BenchmarkRow(name: "remote-hub-latency-p99-with-clients", run: remoteHubLatencyWithClients),
        BenchmarkRow(name: "remote-memory", run: remoteMemory),
    ]

    /// A widget move (`widgets.set`) from one WebSocket client to its `parameter-changed` at a
    /// second, subscribed one, against the same two clients on the control socket: what the
    /// remote's bridges add (lower is better).
    @Sendable static func remoteMove(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "remote")
        let remote = try results.run("ws-move"), socket = try results.run("socket-move")
        return BenchmarkResult(
            title: "widget move → parameter-changed at a second client, \(percentile) "
                + "(\(Int(try remote.value("moves"))) moves 50 ms apart, WebSockets on loopback, VM)",
            unit: "µs", midihub: try remote.value("\(percentile)_us"),
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
