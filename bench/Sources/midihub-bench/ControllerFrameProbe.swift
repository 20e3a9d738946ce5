import ALSA
import AudioHost
import Foundation
import Hub
import MIDICore
import RenderCore

/// The measurement behind the `cc-frame` rows, run inside the VM on a paced sound card
/// (snd-dummy; `bench/vm/cc-frame.bench.sh`): the daemon's live path — a note and a
/// controller that arrive together, the controller read by a `MappingEngine` mapping into a
/// parameter, both staged in the driver's live ring with that arrival and published at the
/// end of the batch, as `HubDaemon.map`, `AudioRack` and `HubDaemon.flush` do — into a real
/// render thread writing to the card. A probe node notes
/// the absolute frame each note and each parameter reaches it at. Per period size, writes
/// one line: `period-P period=P pairs=N max_delta=F mean_offset=F` — the largest distance in frames
/// between a pair's note and parameter, and the note's mean offset into its block (how far
/// a parameter applied at the block's start, as the tools that apply controller moves at
/// block boundaries do, lands from the note).
enum ControllerFrameProbe {
    static let pairs = 200
    static let periods = [64, 256, 1024]

    /// The lines for the controller's path at each of `periods`.
    /// - Thread: main (starts and stops the render thread).
    static func run(device: String, periods: [Int]) throws -> [String] {
        try periods.map { period in
            var mappings = MappingEngine([mapping])
            var values = MappingLoad.Values()
            var changes: [MappingEngine.Change] = []
            let result = try measure(device: device, period: period) { pair, arrival, live in
                live.stage(.noteOn(channel: 0, note: 60, velocity: 100), arrival: arrival)
                changes.removeAll(keepingCapacity: true)
                _ = mappings.handle(.controlChange(channel: 0, controller: 74, value: UInt8(pair % 128)), device: 1,
                                    sources: ["keys"], time: arrival, values: values, into: &changes)
                for change in changes {
                    values.set(change)
                    live.stage(.parameter(node: 0, id: 0, value: change.value), arrival: arrival)
                }
                live.publish()  // the end of the batch (`HubDaemon.flush`)
            }
            return "period-\(period) " + result.fields
        }
    }

    /// Controller 74 on the keys, mapped to the probe's parameter.
    private static let mapping = Mapping(from: "keys", source: .controller(74),
                                         targets: [MappingTarget(node: "probe", parameter: "position", low: 0, high: 127)])

    struct Result {
        var period: Int
        var pairs: Int
        var maxDelta: Int64
        var medianDelta: Int64
        var meanOffset: Double

        /// The result line's fields after its name.
        var fields: String {
            "period=\(period) pairs=\(pairs) max_delta=\(maxDelta) median_delta=\(medianDelta) "
                + String(format: "mean_offset=%.1f", meanOffset)
        }
    }

    /// Plays `pairs` pairs into a probe node rendered to `device` at `period`, each at a random
    /// moment 3–17 ms after the last: `play(pair, arrival, live)` puts a note arriving at
    /// `arrival` and the pair's parameter move into the driver's live ring (whose one producer
    /// it must keep to). Returns the distances in frames between each note and its move.
    static func measure(device: String, period: Int, play: (Int, HostTime, LiveInput) throws -> Void) throws -> Result {
        let options = AudioDriverOptions(pcm: PCMConfiguration(periodFrames: period), realtimePriority: false)
        let driver = try AudioDriver(device: device, options: options)
        let probe = FrameProbe(capacity: pairs)
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [probe], format: driver.renderFormat))
        try driver.start(engine: engine)
        defer { try? driver.stop() }

        var generator = SystemRandomNumberGenerator()
        usleep(200_000)  // the device running steadily
        for pair in 0..<pairs {
            usleep(UInt32.random(in: 3_000...17_000, using: &generator))
            try play(pair, HostTime.now(), driver.live)
        }
        let deadline = Date().addingTimeInterval(5)
        while probe.seen < pairs && Date() < deadline { usleep(10_000) }
        try driver.stop()
        guard probe.noteCount == pairs, probe.parameterCount == pairs else {
            throw BenchmarkError(description: "the probe saw \(probe.noteCount) notes and \(probe.parameterCount) parameters "
                                 + "of \(pairs) pairs at period \(period) (fix: see ControllerFrameProbe.swift)")
        }
        let deltas = (0..<pairs).map { abs(probe.parameterFrames[$0] - probe.noteFrames[$0]) }.sorted()
        let offsets = (0..<pairs).map { Double(probe.noteOffsets[$0]) }
        return Result(period: driver.settings.periodFrames, pairs: pairs, maxDelta: deltas.last ?? 0,
                      medianDelta: deltas[pairs / 2], meanOffset: offsets.reduce(0, +) / Double(pairs))
    }
}

/// Notes the absolute frame of every note-on and parameter event it is handed, in order.
///
/// - Thread: `process` on render (writes only into storage allocated at init); the counts
///   and frames are read on main after the driver stopped.
private final class FrameProbe: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .instrument, subtype: "prob", manufacturer: "bnch", name: "frame probe", version: 1)
    let parameters = [ParameterInfo(id: 0, name: "position", range: 0...127, defaultValue: 0, unit: .generic)]
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    let noteFrames: UnsafeMutablePointer<Int64>
    let noteOffsets: UnsafeMutablePointer<Int64>
    let parameterFrames: UnsafeMutablePointer<Int64>
    private let capacity: Int
    private(set) var noteCount = 0
    private(set) var parameterCount = 0
    var seen: Int { min(noteCount, parameterCount) }

    init(capacity: Int) {
        self.capacity = capacity
        noteFrames = .allocate(capacity: capacity)
        noteOffsets = .allocate(capacity: capacity)
        parameterFrames = .allocate(capacity: capacity)
    }

    deinit {
        noteFrames.deallocate()
        noteOffsets.deallocate()
        parameterFrames.deallocate()
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    func process(_ context: ProcessContext) {
        let blockStart = Int64(context.host.samplePosition)
        for event in context.events {
            switch event.kind {
            case .noteOn where noteCount < capacity:
                noteFrames[noteCount] = blockStart + Int64(event.frame)
                noteOffsets[noteCount] = Int64(event.frame)
                noteCount += 1
            case .parameter where parameterCount < capacity:
                parameterFrames[parameterCount] = blockStart + Int64(event.frame)
                parameterCount += 1
            default:
                break
            }
        }
    }
}

extension BenchmarkRow {
    /// A controller move mapped to a parameter against a note that arrived with it, at the
    /// render thread on a paced card (`ControllerFrameProbe`): the largest distance in frames
    /// over the pairs (goal 0 at every period), against where applying the move at the start
    /// of the note's block puts it (the mean offset of the notes into their blocks).
    @Sendable static func controllerFrame(_ context: BenchmarkContext, period: Int) throws -> BenchmarkResult {
        let run = try HubResults.load(context, bench: "cc-frame").run("period-\(period)")
        return BenchmarkResult(
            title: "CC → parameter vs a note arriving with it, largest distance (\(Int(try run.value("pairs"))) pairs, "
                + "period \(run.text("period")) frames, snd-dummy, VM)",
            unit: "frames", midihub: try run.value("max_delta"),
            anchorName: "applied at the block's start (mean)", anchor: try run.value("mean_offset"),
            lowerIsBetter: true)
    }
}
