import Foundation

extension BenchmarkRow {
    /// The network sessions' rows (issue 27), measured in the VM by `bench/vm/network.bench.sh`:
    /// one stream from a port on one host (a network namespace) to a port on another, carried
    /// by `midihub network` (RTP-MIDI), by aseqnet (alsa-utils, TCP) and by qmidinet (UDP
    /// multicast), in the same boot.
    static let networkInVM: [BenchmarkRow] = [
        BenchmarkRow(name: "network-hop-p50", run: { try networkHop($0, percentile: "p50") }),
        BenchmarkRow(name: "network-hop-p99", run: { try networkHop($0, percentile: "p99") }),
        BenchmarkRow(name: "network-lossless-rate", run: networkLosslessRate),
        BenchmarkRow(name: "network-hanging-notes", run: networkHangingNotes),
        BenchmarkRow(name: "network-jitter-buffer-spread", run: networkJitterBufferSpread),
    ]

    /// One hop between two hosts, port to port, against aseqnet; qmidinet's figure in the
    /// title (lower is better; the issue's goal: at or below aseqnet's).
    @Sendable static func networkHop(_ context: BenchmarkContext, percentile: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "network")
        let hub = try results.run("midihub-latency"), aseqnet = try results.run("aseqnet-latency")
        let qmidinet = try results.run("qmidinet-latency")
        return BenchmarkResult(
            title: "network hop \(percentile), host to host over a veth pair (\(Int(try hub.value("sent"))) note-ons at 1 kHz; "
                + "qmidinet \(qmidinet.text("\(percentile)_us")) µs, \(qmidinet.text("lost")) lost; VM)",
            unit: "µs", midihub: try hub.value("\(percentile)_us"),
            anchorName: "aseqnet", anchor: try aseqnet.value("\(percentile)_us"),
            lowerIsBetter: true)
    }

    /// The highest rate each carries without losing an event, against aseqnet; qmidinet's in
    /// the title (higher is better).
    @Sendable static func networkLosslessRate(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "network")
        let hub = try results.run("midihub-lossless"), aseqnet = try results.run("aseqnet-lossless")
        let qmidinet = try results.run("qmidinet-lossless")
        return BenchmarkResult(
            title: "network highest lossless rate (\(Int(try hub.value("seconds")))-s runs; tried rate:lost — "
                + "midihub \(hub.text("tried")), aseqnet \(aseqnet.text("tried")); qmidinet \(qmidinet.text("rate"))/s)",
            unit: "events/s", midihub: try hub.value("rate"),
            anchorName: "aseqnet", anchor: try aseqnet.value("rate"))
    }

    /// Notes left sounding at the far end after a real song crossed a link losing 5 % of its
    /// packets each way, against qmidinet (UDP, no recovery); aseqnet's (TCP) in the title
    /// (lower is better; the goal: 0).
    @Sendable static func networkHangingNotes(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "network")
        let hub = try results.run("midihub-loss"), qmidinet = try results.run("qmidinet-loss")
        let aseqnet = try results.run("aseqnet-loss")
        return BenchmarkResult(
            title: "notes left hanging after Freedoom's song (×4 tempo, \(hub.text("sent_notes")) notes) crossed a link "
                + "losing 5 % each way, 2 ms ± 1 ms (aseqnet over TCP: \(aseqnet.text("hanging")); notes received: "
                + "midihub \(hub.text("received_notes")), qmidinet \(qmidinet.text("received_notes")); VM)",
            unit: "notes", midihub: try hub.value("hanging"),
            anchorName: "qmidinet", anchor: try qmidinet.value("hanging"),
            lowerIsBetter: true)
    }

    /// How much the hop's latency varies (p99 − p50) on a link delaying each packet 2 ms ± 1 ms,
    /// with a 5 ms jitter buffer against none: the events' spacing kept (lower is better).
    @Sendable static func networkJitterBufferSpread(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "network")
        let buffered = try results.run("midihub-buffer-5"), plain = try results.run("midihub-buffer-0")
        let spread = { (run: HubResults.Run) in try run.value("p99_us") - run.value("p50_us") }
        return BenchmarkResult(
            title: "network hop p99 − p50 on a link delaying 2 ms ± 1 ms, 5 ms jitter buffer (p50 "
                + "\(buffered.text("p50_us")) µs, \(buffered.text("lost")) lost; without: p50 \(plain.text("p50_us")) µs, "
                + "\(plain.text("lost")) lost; VM)",
            unit: "µs", midihub: try spread(buffered),
            anchorName: "no buffer", anchor: try spread(plain),
            lowerIsBetter: true)
    }
}
