import Foundation

extension BenchmarkRow {
    /// The key-to-sound and xrun rows (issue 41), measured in the VM by
    /// `bench/vm/key-to-sound.bench.sh` (`key-to-sound.results`: a note-on into a snd-virmidi
    /// keyboard timed to its onset, the hub against FluidSynth playing the same font at the
    /// same settings) and `bench/vm/xruns.bench.sh` (`xruns.results`: the xruns JACK reported
    /// while each played a dense song).
    static let keyToSoundInVM: [BenchmarkRow] = KeyToSoundSetting.allCases.flatMap { setting in
        [BenchmarkRow(name: "key-to-sound-\(setting.rawValue)", run: { try keyToSound($0, setting, statistic: "p50") }),
         BenchmarkRow(name: "key-to-sound-jitter-\(setting.rawValue)", run: { try keyToSound($0, setting, statistic: "sd") })]
    } + [BenchmarkRow(name: "xruns-dense-song", run: xrunsInDenseSong)]

    /// Where the player plays: `key-to-sound.results` names its runs `hub-SETTING` and
    /// `fluidsynth-SETTING`.
    enum KeyToSoundSetting: String, CaseIterable {
        case jack64 = "jack-64", jack256 = "jack-256", alsa

        var summary: String {
            switch self {
            case .jack64: "in JACK, 64-frame periods (jackd -d dummy; the JACK port's onset plus the server's playback latency)"
            case .jack256: "in JACK, 256-frame periods (jackd -d dummy; the JACK port's onset plus the server's playback latency)"
            case .alsa: "on ALSA PCM, 4 periods of 256 frames (snd-aloop, captured)"
            }
        }
    }

    /// Key to sound through the hub against FluidSynth: the median (`p50`) or the standard
    /// deviation (`sd`, the jitter), in ms (lower is better).
    @Sendable static func keyToSound(_ context: BenchmarkContext, _ setting: KeyToSoundSetting, statistic: String) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "key-to-sound")
        let hub = try results.run("hub-\(setting.rawValue)"), fluidsynth = try results.run("fluidsynth-\(setting.rawValue)")
        func counts(_ run: HubResults.Run) -> String {
            let xruns = run.fields["jack_xruns"].map { ", \($0) JACK xruns" } ?? ""
            return "\(run.text("timed")) of \(run.text("sent")) timed, \(run.text("lost")) lost, "
                + "\(run.text("not_quiet")) not after silence\(xruns); p50 \(run.text("p50")), sd \(run.text("sd")), "
                + "\(run.text("low"))…\(run.text("high")) ms"
        }
        let what = statistic == "p50" ? "median" : "jitter (standard deviation)"
        return BenchmarkResult(
            title: "key to sound, \(what): a note-on into a snd-virmidi keyboard to its onset, FluidR3_GM's organ, "
                + "\(setting.summary) (midihub: \(counts(hub)); fluidsynth: \(counts(fluidsynth)); VM)",
            unit: "ms", midihub: try hub.value(statistic),
            anchorName: "fluidsynth", anchor: try fluidsynth.value(statistic),
            lowerIsBetter: true)
    }

    /// The xruns JACK reported while each played the same dense song (lower is better).
    @Sendable static func xrunsInDenseSong(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let results = try HubResults.load(context, bench: "xruns")
        let hub = try results.run("hub"), fluidsynth = try results.run("fluidsynth")
        return BenchmarkResult(
            title: "xruns in JACK while playing \(hub.text("seconds")) s of a dense song (the `game` shape, 20 notes/s, "
                + "through FluidR3_GM; jackd -d dummy, 256-frame periods; periods run: midihub \(hub.text("periods")), "
                + "fluidsynth \(fluidsynth.text("periods")); VM)",
            unit: "xruns", midihub: try hub.value("xruns"),
            anchorName: "fluidsynth", anchor: try fluidsynth.value("xruns"),
            lowerIsBetter: true)
    }
}
