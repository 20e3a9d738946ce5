import Foundation

extension BenchmarkRow {
    /// The rows measured in the VM by `bench/vm/hub.bench.sh` (`bench/run-vm`), read back
    /// from its results: the hub's path (seq-probe → `midihub serve` → seq-probe) against a
    /// direct kernel subscription between the same two ports, in the same boot.
    static let inVM: [BenchmarkRow] = [
        BenchmarkRow(name: "hub-latency-p50", run: { try hubLatency($0, percentile: "p50") }),
        BenchmarkRow(name: "hub-latency-p99", run: { try hubLatency($0, percentile: "p99") }),
        BenchmarkRow(name: "hub-latency-p99-under-control-load", run: hubLatencyUnderLoad),
        BenchmarkRow(name: "hub-latency-p99-while-plugins-load", run: hubLatencyWhilePluginsLoad),
        BenchmarkRow(name: "hub-latency-p99-beside-a-stalled-receiver", run: hubLatencyBesideStalledReceiver),
        BenchmarkRow(name: "hub-throughput", run: hubThroughput),
        BenchmarkRow(name: "hub-lossless-rate", run: hubLosslessRate),
        BenchmarkRow(name: "hub-latency-p50-vs-relay", run: { try hubLatency($0, percentile: "p50", against: .relay) }),
        BenchmarkRow(name: "hub-latency-p99-vs-relay", run: { try hubLatency($0, percentile: "p99", against: .relay) }),
        BenchmarkRow(name: "hub-lossless-rate-vs-relay", run: hubLosslessRateVsRelay),
        BenchmarkRow(name: "hub-memory", run: hubMemory),
        BenchmarkRow(name: "transport-timing-p50", run: { try transportTiming($0, percentile: "p50") }),
        BenchmarkRow(name: "transport-timing-p99", run: { try transportTiming($0, percentile: "p99") }),
        BenchmarkRow(name: "record-take-p99", run: { try recordAccuracy($0, run: "hub-take", statistic: "p99") }),
        BenchmarkRow(name: "record-take-max", run: { try recordAccuracy($0, run: "hub-take", statistic: "max") }),
        BenchmarkRow(name: "record-port-max", run: { try recordAccuracy($0, run: "port-take", statistic: "max") }),
        BenchmarkRow(name: "clock-out-jitter-p50", run: { try clockJitter($0, percentile: "p50") }),
        BenchmarkRow(name: "clock-out-jitter-p99", run: { try clockJitter($0, percentile: "p99") }),
        BenchmarkRow(name: "clock-in-follow-p50", run: { try clockFollow($0, percentile: "p50") }),
        BenchmarkRow(name: "clock-in-follow-p99", run: { try clockFollow($0, percentile: "p99") }),
    ] + ControllerFrameProbe.periods.map { period in
        BenchmarkRow(name: "cc-frame-\(period)", run: { try controllerFrame($0, period: period) })
    } + remoteInVM + oscInVM + networkInVM + jackInVM + keyToSoundInVM

    /// How steadily the daemon, following midish's clock (`clock: follow`), plays a song on
    /// the master's beats: each note's distance from the master's pulse at its tick, less the
    /// median, after the first second — against how steady the master's pulses themselves
    /// are, in the same run; the title has the lock time and the status tempo's error
    /// (`bench/vm/transport.bench.sh`; lower is better).
    @Sendable static func clockFollow(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "transport")
        let hub = try results.run("hub-follow"), master = try results.run("master-clock")
        return BenchmarkResult(
            title: "MIDI clock in: note vs master's pulse, \(percentile) of abs(offset − median) after 1 s "
                + "(little-song.mid at midish's 125 BPM, \(Int(try hub.value("notes"))) notes; locked \(hub.text("lock_ms")) ms "
                + "after Start; tempo error \(hub.text("tempo_error_pct")) %, VM)",
            unit: "µs", midihub: try hub.value("\(percentile)_us"),
            anchorName: "the master's pulses vs their line", anchor: try master.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// How steady the daemon's MIDI clock out is at an ALSA port (Midi Through): each pulse's
    /// distance from the line fitted through the pulses of its tempo, against midish's clock
    /// (`dclktx`) in the same boot (`bench/vm/transport.bench.sh`; lower is better).
    @Sendable static func clockJitter(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "transport")
        let hub = try results.run("hub-clock"), anchor = try results.run("midish-clock")
        return BenchmarkResult(
            title: "MIDI clock out jitter, \(percentile) of abs(pulse arrival − fitted line) "
                + "(\(Int(try hub.value("pulses"))) pulses of little-song.mid; midish \(Int(try anchor.value("pulses"))) at 120 BPM, VM)",
            unit: "µs", midihub: try hub.value("\(percentile)_us"),
            anchorName: "midish", anchor: try anchor.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// How far each event of a real-shaped song arrives from its time in the file, at an
    /// external ALSA port (Midi Through), played by the daemon's transport against
    /// `aplaymidi` in the same boot (`bench/vm/transport.bench.sh`; lower is better).
    @Sendable static func transportTiming(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "transport")
        let hub = try results.run("hub-timing"), anchor = try results.run("aplaymidi-timing")
        return BenchmarkResult(
            title: "transport timing at an ALSA port, \(percentile) of abs(arrival − file time − median) "
                + "(little-song.mid, \(Int(try hub.value("events"))) events, VM)",
            unit: "µs", midihub: try hub.value("\(percentile)_us"),
            anchorName: "aplaymidi", anchor: try anchor.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// How far each event of a song played into Midi Through lands from its time in the song
    /// in a recording of that port — the daemon's take (`hub-take`) or `midihub record --port`
    /// (`port-take`) — against arecordmidi recording the same port at the same time, all on
    /// the same grid (`bench/vm/record.bench.sh`; lower is better; the issue's goal: the worst
    /// event at most arecordmidi's plus 0.5 ms).
    @Sendable static func recordAccuracy(_ context: BenchmarkContext, run name: String, statistic: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "record")
        let take = try results.run(name), anchor = try results.run("arecordmidi-take")
        let recorder = name == "hub-take" ? "the daemon's record trigger" : "midihub record --port"
        return BenchmarkResult(
            title: "recording accuracy, \(statistic) of abs(recorded − song time − median) (\(recorder); little-song.mid, "
                + "\(Int(try take.value("events"))) events, 480 ticks per quarter at 120 BPM, VM)",
            unit: "µs", midihub: try take.value("\(statistic)_us"),
            anchorName: "arecordmidi", anchor: try anchor.value("\(statistic)_us"),
            lowerIsBetter: true)
    }

    /// The path the hub's hop is measured against, in the same boot: a direct kernel
    /// subscription (the goal: the hub at most twice it), or seq-relay (`bench/Sources/seq-relay`:
    /// the smallest userspace router, one client that reads and writes each burst on in one
    /// write — the same two kernel hops and one wake-up; the goal: at most 1.25× it).
    enum HopAnchor {
        case direct, relay

        /// Its run in the VM's results, and its name in the table.
        var run: String { self == .direct ? "direct-latency" : "relay-latency" }
        var name: String { self == .direct ? "aconnect direct" : "seq-relay" }
    }

    /// Send → receive time of note-ons paced at 1 kHz through the hub against `anchor`
    /// (lower is better).
    @Sendable static func hubLatency(_ context: BenchmarkContext, percentile: String, against anchor: HopAnchor = .direct)
        throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let hub = try results.run("hub-latency"), other = try results.run(anchor.run)
        return BenchmarkResult(
            title: "hub hop latency \(percentile)" + (anchor == .relay ? " against the smallest C relay" : "")
                + " (\(Int(try hub.value("sent"))) note-ons at 1 kHz; lost: hub \(Int(try hub.value("lost"))), "
                + "\(anchor.name) \(Int(try other.value("lost"))), VM)",
            unit: "µs", midihub: try hub.value("\(percentile)_us"),
            anchorName: anchor.name, anchor: try other.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// The hub's p99 hop latency while four control clients ask for lists as fast as they are
    /// answered and one sets a parameter 1,000 times a second (each set saved with the state),
    /// against the same daemon idle in the same boot (lower is better; the goal: at most 1.2×).
    @Sendable static func hubLatencyUnderLoad(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let loaded = try results.run("hub-latency-loaded"), idle = try results.run("hub-latency")
        let load = try results.run("parameter-load")
        return BenchmarkResult(
            title: "hub hop latency p99 while \(Int(try load.value("listers"))) clients ask for lists and one sets "
                + "\(Int(try load.value("rate"))) parameters/s, each saved (\(Int(try load.value("lists"))) lists and "
                + "\(Int(try load.value("sets"))) sets during the run, VM)",
            unit: "µs", midihub: try loaded.value("p99_us"),
            anchorName: "the hub idle", anchor: try idle.value("p99_us"),
            lowerIsBetter: true)
    }

    /// The hub's p99 hop latency while a control client adds and removes an LV2 MIDI effect
    /// as fast as it is answered (each instantiated on the control side; the first add, which
    /// reads every installed bundle, before the run), against the same daemon idle in the same
    /// boot (lower is better; issue 39's goal: the hop as it is idle).
    @Sendable static func hubLatencyWhilePluginsLoad(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let loading = try results.run("hub-latency-plugins"), idle = try results.run("hub-latency")
        return BenchmarkResult(
            title: "hub hop latency p99 while a client adds and removes an LV2 MIDI effect (x42 MIDI Note Transpose, "
                + "\(Int(try results.run("plugin-load").value("loads"))) loads during the run, the first before it in "
                + "\(try results.run("plugin-load").value("first_s")) s; lost \(Int(try loading.value("lost"))), VM)",
            unit: "µs", midihub: try loading.value("p99_us"),
            anchorName: "the hub idle", anchor: try idle.value("p99_us"),
            lowerIsBetter: true)
    }

    /// The hub's p99 hop latency to its receiver while another external node's program is
    /// stopped (SIGSTOP) and the same notes pile up for it, against the same daemon without
    /// it in the same boot (lower is better; the goal: at most 1.2×, and nothing lost).
    @Sendable static func hubLatencyBesideStalledReceiver(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let stalled = try results.run("hub-latency-stalled"), idle = try results.run("hub-latency")
        return BenchmarkResult(
            title: "hub hop latency p99 while a second receiver is stopped (SIGSTOP) and fed the same notes "
                + "(\(Int(try stalled.value("lost"))) lost at the live receiver, VM)",
            unit: "µs", midihub: try stalled.value("p99_us"),
            anchorName: "without it", anchor: try idle.value("p99_us"),
            lowerIsBetter: true)
    }

    /// Note-ons delivered per second (received ÷ time from the first send to the last
    /// arrival) when offered at the target rate; the title says what was offered and lost.
    @Sendable static func hubThroughput(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let hub = try results.run("hub-throughput"), direct = try results.run("direct-throughput")
        let offered = try hub.value("sent")
        func lost(_ run: HubResults.Run) throws -> String {
            String(Int(try run.value("lost")))
        }
        return BenchmarkResult(
            title: "hub throughput (\(Int(offered)) note-ons offered; sent at \(Int(try hub.value("send_rate")))/s "
                + "via hub, \(Int(try direct.value("send_rate")))/s direct; lost: hub \(try lost(hub)), direct \(try lost(direct)))",
            unit: "events/s", midihub: try hub.value("receive_rate"),
            anchorName: "aconnect direct", anchor: try direct.value("receive_rate"))
    }

    /// The highest offered rate each path carried without losing an event in a short run,
    /// bisected in the same boot (higher is better); the title lists the steps (rate:lost).
    @Sendable static func hubLosslessRate(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let hub = try results.run("hub-lossless"), direct = try results.run("direct-lossless")
        return BenchmarkResult(
            title: "hub highest lossless rate (\(Int(try hub.value("seconds")))-s runs; tried rate:lost — hub \(hub.text("tried")), "
                + "direct \(direct.text("tried")))",
            unit: "events/s", midihub: try hub.value("rate"),
            anchorName: "aconnect direct", anchor: try direct.value("rate"))
    }

    /// The highest rate the hub carries without loss against seq-relay's, bisected the same
    /// way in the same boot (higher is better; the goal: at least 0.9× the relay's); the title
    /// lists the relay's steps (rate:lost) and the reads where the relay's input overflowed.
    @Sendable static func hubLosslessRateVsRelay(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context)
        let hub = try results.run("hub-lossless"), relay = try results.run("relay-lossless")
        let stats = try results.run("relay")
        return BenchmarkResult(
            title: "hub highest lossless rate against the smallest C relay (\(Int(try hub.value("seconds")))-s runs; "
                + "tried rate:lost — hub \(hub.text("tried")), relay \(relay.text("tried")); relay: "
                + "\(Int(try stats.value("events"))) events in \(Int(try stats.value("writes"))) writes, "
                + "\(Int(try stats.value("overflows"))) input overflows)",
            unit: "events/s", midihub: try hub.value("rate"),
            anchorName: "seq-relay", anchor: try relay.value("rate"))
    }

    /// The daemon's resident memory after the throughput run against before it (flat is 1.0×).
    @Sendable static func hubMemory(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let rss = try HubResults.load(context).run("hub-rss")
        return BenchmarkResult(
            title: "midihub serve RSS across the throughput run",
            unit: "MB", midihub: try rss.value("after_kb") / 1024,
            anchorName: "before", anchor: try rss.value("before_kb") / 1024,
            lowerIsBetter: true)
    }
}

/// `hub.results` as the VM script writes it: one line per run, `RUN key=value...`.
struct HubResults {
    struct Run {
        var name: String
        var fields: [String: String]

        func value(_ key: String) throws -> Double {
            guard let value = fields[key].flatMap(Double.init) else {
                throw BenchmarkError(description: "run '\(name)' has no number '\(key)' in the VM results (fix: rerun bench/run-vm)")
            }
            return value
        }

        /// The field `key` as written ("?" when missing).
        func text(_ key: String) -> String {
            fields[key] ?? "?"
        }
    }

    var file: URL
    var runs: [String: Run]

    /// The results `bench/vm/BENCH.bench.sh` wrote (`BENCH.results`).
    static func load(_ context: BenchmarkContext, bench: String = "hub") throws -> HubResults {
        guard let folder = context.vmResults else {
            throw BenchmarkError(description: "the hub rows are measured in the VM (fix: run bench/run-vm)")
        }
        let file = folder.appendingPathComponent("\(bench)/\(bench).results")
        guard let text = try? String(contentsOf: file, encoding: .utf8) else {
            throw BenchmarkError(description: "cannot read \(file.path) (fix: rerun bench/run-vm; the VM log is in \(folder.deletingLastPathComponent().path))")
        }
        var runs: [String: Run] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let name = fields.first.map(String.init) else { continue }
            let pairs = fields.dropFirst().compactMap { field -> (String, String)? in
                let parts = field.split(separator: "=", maxSplits: 1)
                return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
            }
            runs[name] = Run(name: name, fields: Dictionary(pairs, uniquingKeysWith: { $1 }))
        }
        return HubResults(file: file, runs: runs)
    }

    func run(_ name: String) throws -> Run {
        guard let run = runs[name] else {
            throw BenchmarkError(description: "\(file.path) has no '\(name)' run (fix: see the VM log, rerun bench/run-vm)")
        }
        return run
    }
}
