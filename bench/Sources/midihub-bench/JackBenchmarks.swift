import Foundation

extension BenchmarkRow {
    /// The JACK MIDI rows (issue 41), measured in the VM by `bench/vm/jack.bench.sh`:
    /// `jack-midi-probe` through the hub's JACK client against the same through the smallest
    /// JACK MIDI router (`jack-midi-relay`), in JACK's frames (`jack.results`).
    static let jackInVM: [BenchmarkRow] = [
        BenchmarkRow(name: "jack-midi-hop-p50", run: { try jackMIDIHop($0, statistic: "p50", named: "median") }),
        BenchmarkRow(name: "jack-midi-hop-avg", run: { try jackMIDIHop($0, statistic: "avg", named: "average") }),
    ]

    /// JACK MIDI from one client to another through a client between, timed by
    /// `jack-midi-probe` in frames: through `midihub serve --audio jack` (a source node routed
    /// straight to an external node on the probe's input) against `jack-midi-relay` (its input
    /// copied to its output in the process callback). No cycle in JACK's graph: a client that
    /// adds nothing shows 0 frames, the issue's goal "the same JACK period, no more" (lower is
    /// better).
    @Sendable static func jackMIDIHop(_ context: BenchmarkContext, statistic: String, named name: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "jack")
        let hub = try results.run("hub"), relay = try results.run("relay")
        return BenchmarkResult(
            title: "JACK MIDI through the hub, \(name) latency in JACK frames (jack-midi-probe: \(hub.text("received")) of "
                + "\(hub.text("sent")) note-ons timed, \(hub.text("same_period")) in the period they were sent, highest "
                + "\(hub.text("high")), \(hub.text("across_xruns")) across xruns left out; relay \(relay.text("received")) timed, "
                + "\(relay.text("same_period")) in their period, highest \(relay.text("high")); jackd -d dummy, 256-frame periods; "
                + "0 = the same frame of the same period; VM)",
            unit: "frames", midihub: try hub.value(statistic),
            anchorName: "jack-midi-relay", anchor: try relay.value(statistic),
            lowerIsBetter: true)
    }
}
