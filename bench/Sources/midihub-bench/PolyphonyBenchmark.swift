import Foundation
import MIDICore
import Sequencer
import RenderCore
import SoundFont
import Synth

extension BenchmarkRow {
    /// Sample rate and block of the polyphony row: 64 frames at 48 kHz, a 1.33 ms deadline.
    static let polyphonyRate = 48_000.0
    static let polyphonyBlock = 64
    /// A block must finish within this share of its deadline.
    static let polyphonyBudget = 0.5

    /// The most voices each synth holds while the p99.9 time of a 64-frame block at
    /// 48 kHz stays under 50 % of its 1.33 ms deadline, both timed in-process block by
    /// block (thread CPU time) after the attacks: midihub's standard graph (synth and reverb) holding
    /// sustaining notes, and FluidSynth's library (reverb and chorus on, one core, FluidR3_GM)
    /// with `synth.polyphony` set to the count and as many held notes as that fills.
    @Sendable static func polyphony(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let bank = try PresetBankLoader.load(directory: context.repository.appendingPathComponent("patches/presets").path)
        return try polyphony(context, instrument: "synth") { voices in SynthNode(bank: bank, voiceCapacity: voices) }
    }

    /// `polyphony` with the SoundFont instrument playing FluidSynth's font.
    @Sendable static func polyphonySoundFont(_ context: BenchmarkContext) throws -> BenchmarkResult {
        let font = try SoundFont.open(try Renderers.find(in: context).soundFont.path)
        return try polyphony(context, instrument: "soundfont") { voices in SoundFontNode(font: font, voiceCapacity: voices) }
    }

    private static func polyphony(_ context: BenchmarkContext, instrument: String,
                                  _ makeInstrument: (Int) -> any Node) throws -> BenchmarkResult {
        let renderers = try Renderers.find(in: context)
        let budget = polyphonyBudget * Double(polyphonyBlock) / polyphonyRate
        let ours = largestPassing(from: 256) { voices in
            guard let p999 = midihubBlockP999(voices: voices, instrument: makeInstrument(voices)) else { return false }
            return report("midihub \(instrument)", voices, p999) < budget
        }
        let theirs = try largestPassing(from: 256) { voices in
            let fluid = try FluidSynthLibrary(soundFont: renderers.soundFont.path, sampleRate: polyphonyRate,
                                              midiChannels: 256, polyphony: Int32(voices))
            return try report("fluidsynth", voices, fluidsynthBlockP999(voices: voices, synth: fluid)) < budget
        }
        return BenchmarkResult(
            title: "polyphony, \(instrument): voices with p99.9 of a 64-frame block at 48 kHz under 50 % of its deadline",
            unit: "voices", midihub: Double(ours), anchorName: "fluidsynth", anchor: Double(theirs))
    }

    /// Prints one trial to standard error and returns its time.
    private static func report(_ who: String, _ voices: Int, _ seconds: Double) -> Double {
        FileHandle.standardError.write(Data(String(format: "polyphony: %@ %d voices: p99.9 block %.3f ms (%.0f %% of the deadline)\n",
                                                   who, voices, seconds * 1000, seconds * polyphonyRate / Double(polyphonyBlock) * 100).utf8))
        return seconds
    }

    /// Doubles from `start` while `passes`, then bisects to a multiple of 64.
    private static func largestPassing(from start: Int, limit: Int = 32_768, _ passes: (Int) throws -> Bool) rethrows -> Int {
        var good = 0, bad = limit
        var n = start
        while n < bad {
            if try passes(n) { good = n; n *= 2 } else { bad = n; break }
        }
        while bad - good > 64 {
            let middle = (good + bad) / 2 / 64 * 64
            if try passes(middle) { good = middle } else { bad = middle }
        }
        return good
    }

    /// p99.9 seconds of one 64-frame block of the standard graph around `instrument` (made
    /// for `voices` voices) holding `voices` notes, or nil (a failed trial) when fewer than
    /// 90 % of them still sound at the end: past 1920 notes the 15 channels' 128 keys
    /// repeat, and a key struck again releases its earlier voices (most notes of these
    /// sounds are three or four voices, so about 5300 voices can sound).
    private static func midihubBlockP999(voices: Int, instrument: any Node) -> Double? {
        let schedule = RenderSchedule(file: heldNotes(voices, seconds: 20), sampleRate: polyphonyRate)
        let graph = StandardGraph(playing: instrument)
        let renderer = OfflineRenderer(schedule: schedule, nodes: graph.nodes, wiring: graph.wiring, blockSize: polyphonyBlock,
                                       tail: .fixed(seconds: 0))
        let p999 = blockP999 { _ = renderer.renderNextBlock() }
        let sounding = Int(instrument.outputValues.load(0))  // both instruments: output 0 is the active voice count
        guard sounding >= voices * 90 / 100 else {
            FileHandle.standardError.write(Data("polyphony: midihub: only \(sounding) of \(voices) held notes still sound\n".utf8))
            return nil
        }
        return p999
    }

    /// p99.9 seconds of one 64-frame FluidSynth block with `voices` voices sounding.
    private static func fluidsynthBlockP999(voices: Int, synth: FluidSynthLibrary) throws -> Double {
        let programs = heldPrograms.map(Int.init)
        var channel = 0, key = 36
        /// Adds held notes (new keys, then new channels) until `voices` voices sound.
        func fill() {
            while synth.activeVoices < voices && channel < 256 {
                if key == 36 && channel % 16 != 9 { synth.programChange(channel: channel, program: programs[channel % programs.count]) }
                if channel % 16 != 9 { synth.noteOn(channel: channel, key: key, velocity: 100) }
                key += 1
                if key == 96 || channel % 16 == 9 { key = 36; channel += 1 }
            }
        }
        fill()
        let left = UnsafeMutablePointer<Float>.allocate(capacity: polyphonyBlock)
        let right = UnsafeMutablePointer<Float>.allocate(capacity: polyphonyBlock)
        defer { left.deallocate(); right.deallocate() }
        // Voices of samples that do not loop end during the warm-up; they are replaced.
        let p999 = blockP999(afterWarmUp: fill) { synth.render(frames: polyphonyBlock, left: left, right: right) }
        FileHandle.standardError.write(Data("polyphony: fluidsynth sounds \(synth.activeVoices) of \(voices) voices at the end\n".utf8))
        guard synth.activeVoices >= voices * 90 / 100 else {
            throw BenchmarkError(description: "fluidsynth: only \(synth.activeVoices) of \(voices) voices still sound")
        }
        return p999
    }

    /// Renders 750 blocks (past every attack), then times 3 runs of 4000 blocks one by
    /// one; the lowest of the runs' p99.9 (a run hit by a neighbour's burst is discarded).
    /// Times are the thread's CPU time, so other load on a shared machine (preemption)
    /// does not count against either synth; on a dedicated realtime thread they are the
    /// wall time.
    private static func blockP999(afterWarmUp: () -> Void = {}, _ renderBlock: () -> Void) -> Double {
        for _ in 0..<750 { renderBlock() }
        afterWarmUp()
        var best = Double.infinity
        var times = [Double](repeating: 0, count: 4000)
        for _ in 0..<3 {
            for index in times.indices {
                let start = threadCPUSeconds()
                renderBlock()
                times[index] = threadCPUSeconds() - start
            }
            times.sort()
            best = min(best, times[times.count * 999 / 1000])
        }
        return best
    }

    static func threadCPUSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }

    /// The 15 GM programs whose 128 keys, held, keep the most voices of FluidR3_GM sounding
    /// for 20 s: leads, pads, polysynth, accordion, synth strings, goblins, organ (about
    /// 5300 voices together: three or four a note on most, where the earlier choice of
    /// strings, brass and reeds held two and let midihub's file reach only 3500).
    /// Both synths play them.
    static let heldPrograms: [UInt8] = [86, 90, 89, 97, 23, 51, 101, 91, 92, 102, 16, 80, 73, 81, 94]

    /// `count` notes held for `seconds` on 15 channels with `heldPrograms`.
    static func heldNotes(_ count: Int, seconds: Double) -> MIDIFile {
        let programs = heldPrograms
        let channels: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15]
        let ticksPerSecond = 960.0  // 480 per quarter at 120 bpm
        let end = UInt64(seconds * ticksPerSecond)
        var events: [TrackEvent] = []
        for (index, channel) in channels.enumerated() {
            events.append(TrackEvent(tick: 0, .midi(.programChange(channel: channel, program: programs[index]))))
        }
        // Keys 36…95 first (in steps of 7), then the rest: 128 keys on each of 15 channels.
        let middle: [UInt8] = (0..<60).map { step in UInt8(36 + step * 7 % 60) }
        let keys: [UInt8] = middle + Array(UInt8(0)..<36) + Array(UInt8(96)..<128)
        for index in 0..<count {
            let channel = channels[index % channels.count]
            let note = keys[index / channels.count % keys.count]
            // At most 2048 note-ons per 64-frame block (a block carries up to 4096 events per node).
            events.append(TrackEvent(tick: Tick(UInt64(index / 2048) * 2), .midi(.noteOn(channel: channel, note: note, velocity: 100))))
            events.append(TrackEvent(tick: Tick(end), .midi(.noteOff(channel: channel, note: note, velocity: 0))))
        }
        return MIDIFile(format: 0, division: .ticksPerQuarter(480), tracks: [MIDITrack(events: events, endTick: Tick(end))])
    }
}
