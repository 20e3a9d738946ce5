import MIDICore
import ALSA
import RenderCore
import Sequencer

/// The render thread's work: per block, gather the block's events (a schedule's and the
/// transport's at their exact frame, live ones one block after arrival) and render them
/// through the engine's program. Two ways to be driven: `run(on:)` writes each block to an
/// ALSA PCM device, whose blocking write paces it; `render(left:right:frames:)` fills a
/// JACK period's port buffers from JACK's process callback, which JACK's clock paces.
///
/// Owns everything it touches in the loop (preallocated on control in `init`); shares
/// only `DriverState` atomics. Nothing in a block allocates, locks or calls the system,
/// except the PCM write (and, once, the drop from realtime priority when the
/// `OverrunWatchdog` fires).
///
/// - Thread: render for `run(on:)` and `render(left:right:frames:)`; `init` on control;
///   `failure` is read on control after the thread was joined.
final class RenderLoop: @unchecked Sendable {
    private enum Phase: Equatable {
        case playing
        /// Fading out after a stop request: frames left until silence.
        case fading(remaining: Int)
        /// Faded out: one more block carries All Sound Off, then playback is over.
        case silencing
        /// Over: nothing more is rendered.
        case over
    }

    private let engine: RenderEngine
    private let live: LiveInput
    private let sequenced: SequencedInput
    private let tap: AudioTap
    /// JACK MIDI read at its frame (`render(left:right:frames:)` in JACK only).
    private let jackMIDI: JackAudioPorts?
    private var sequencedTiming = SequencedTiming()
    private let state: DriverState
    private var timing: LiveEventTiming
    private var cursor: ScheduleCursor?
    /// Frame where playback ends by itself (a sequence's end plus its tail); nil: live.
    private let endFrame: FramePosition?
    /// The most frames one block renders (a JACK period longer than that is rendered in parts).
    private let blockFrames: Int
    private let fadeFrames: Int
    private let sampleRate: Double
    private let output: AudioBuffer
    /// A PCM device's block, interleaved (`run(on:)`).
    private let interleaved: UnsafeMutablePointer<Float>
    private let channels: Int
    private let events: UnsafeMutablePointer<RenderEvent>
    private let eventCapacity: Int
    private var position = FramePosition.zero
    /// The live timeline (no schedule): beats advance at `DriverState`'s tempo, or as the
    /// transport's song says while one plays (`songPlays`).
    private var liveHost: HostSync
    private var songPlays = false
    /// The timeline of the block rendered last (what JACK's timebase callback reports).
    private(set) var lastHost = HostSync()
    private var phase = Phase.playing
    private var watchdog: OverrunWatchdog
    /// Why playback ended early (device gone, write failed); read after join.
    private(set) var failure: PCMError?

    /// - Thread: control (allocates).
    init(engine: RenderEngine, live: LiveInput, sequenced: SequencedInput, tap: AudioTap, state: DriverState,
         schedule: RenderSchedule?, sampleRate: Int, channels: Int, blockFrames: Int, options: AudioDriverOptions,
         jackMIDI: JackAudioPorts? = nil) {
        self.engine = engine
        self.jackMIDI = jackMIDI
        self.live = live
        self.sequenced = sequenced
        self.tap = tap
        self.state = state
        self.blockFrames = blockFrames
        self.sampleRate = Double(sampleRate)
        timing = LiveEventTiming(sampleRate: sampleRate)
        liveHost = HostSync(sampleRate: self.sampleRate, transport: .playing)
        cursor = schedule.map(ScheduleCursor.init(schedule:))
        endFrame = schedule.map { $0.endFrame + Int64(options.tailSeconds * Double(sampleRate)) }
        fadeFrames = max(1, Int(options.fadeOutSeconds * self.sampleRate))
        output = AudioBuffer(channels: 2, capacity: blockFrames)
        self.channels = channels
        interleaved = .allocate(capacity: blockFrames * channels)
        eventCapacity = max(options.maxEventsPerBlock, 16)  // room for All Sound Off on 16 channels
        events = .allocate(capacity: eventCapacity)
        watchdog = OverrunWatchdog(blockFrames: blockFrames, sampleRate: sampleRate)
    }

    deinit {
        interleaved.deallocate()
        events.deallocate()
    }

    /// Watches for blocks that render slower than they play, from now on (the thread got
    /// realtime priority).
    /// - Thread: render, before `run`.
    func watchOverruns() {
        watchdog.arm()
    }

    /// Plays to `device` until the sequence ends, a stop request has faded out, or the
    /// device fails; then drains the device (not after a failure).
    /// - Thread: render.
    func run(on device: PCMDevice) {
        defer { state.running.store(false, ordering: .releasing) }
        do {
            while renderBlock(frames: blockFrames, periodOffset: nil) {
                interleave()
                try device.write(frames: UnsafeBufferPointer(start: interleaved, count: blockFrames * channels))
            }
            try device.drain()
        } catch {
            failure = error
        }
    }

    /// Fills one JACK period: `frames` frames of the left and right ports' buffers, in
    /// blocks of at most `blockFrames`. Once playback is over (a stop faded out, the
    /// sequence ended) it writes silence and clears `DriverState.running`.
    /// - Thread: render (JACK's process thread).
    func render(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>, frames: Int) {
        var done = 0
        while done < frames {
            let count = min(blockFrames, frames - done)
            guard renderBlock(frames: count, periodOffset: done) else {
                (left + done).update(repeating: 0, count: frames - done)
                (right + done).update(repeating: 0, count: frames - done)
                state.running.store(false, ordering: .releasing)
                return
            }
            (left + done).update(from: output.left, count: count)
            (right + done).update(from: output.right, count: count)
            done += count
        }
    }

    /// Renders the next `frames` (at most `blockFrames`) into `output`, at `periodOffset` in
    /// a JACK period (nil: a PCM device's block). Returns false, with nothing rendered, once
    /// playback is over.
    private func renderBlock(frames: Int, periodOffset: Int?) -> Bool {
        if phase == .playing {
            if state.stopRequested.load(ordering: .acquiring) {
                phase = .fading(remaining: fadeFrames)
            } else if let endFrame, position >= endFrame {
                phase = .over
            }
        }
        guard phase != .over else { return false }
        let blockStart = HostTime.now()
        var count = cursor?.events(from: position, frames: frames, into: events, capacity: eventCapacity) ?? 0
        var dropped = sequencedTiming.collect(from: sequenced, start: position, frames: frames,
                                              into: events, count: &count, capacity: eventCapacity)
        dropped += timing.collect(from: live.ring, blockStart: blockStart, frames: frames,
                                     into: events, count: &count, capacity: eventCapacity)
        if let periodOffset, let jackMIDI {
            dropped += jackMIDI.collectMIDI(offset: periodOffset, frames: frames, into: events, count: &count, capacity: eventCapacity)
        }
        if phase == .silencing { dropped += appendAllSoundOff(count: &count) }
        if dropped > 0 { state.droppedEvents.add(dropped, ordering: .relaxed) }

        let host = hostSync()
        lastHost = host
        engine.render(frames: frames, bus: output.bus, host: host,
                      sequenced: UnsafeBufferPointer(start: events, count: count))
        liveHost = host.advanced(by: frames)
        applyFade(frames: frames)
        tap.push(output: output.bus, of: engine, frames: frames)
        if watchdog.record(rendering: HostTime.now() - blockStart) {
            state.realtimeDropped.store(PCMRealtimePriority.dropForCurrentThread(), ordering: .releasing)
        }
        position += Int64(frames)
        state.framesRendered.store(position.index, ordering: .relaxed)
        advancePhase(frames: frames)
        return true
    }

    /// The schedule's timeline, the transport's song's while one plays, or the live one at
    /// the driver's current tempo.
    private func hostSync() -> HostSync {
        if let cursor { return cursor.schedule.hostSync(atFrame: position) }
        if let point = sequencedTiming.timeline(from: sequenced, start: position, sampleRate: sampleRate) {
            songPlays = point.transport != .stopped
            if songPlays { liveHost = point }
        }
        guard !songPlays else { return liveHost }
        var host = liveHost
        host.tempo = Double(bitPattern: state.tempoBits.load(ordering: .relaxed))
        host.transport = .playing
        return host
    }

    /// Ramps the block down while fading; silence once the fade is over.
    private func applyFade(frames: Int) {
        switch phase {
        case .playing, .over:
            return
        case .fading(let remaining):
            let step = 1 / Float(fadeFrames)
            for i in 0..<frames {
                let gain = max(0, Float(remaining - i) * step)
                output.left[i] *= gain
                output.right[i] *= gain
            }
        case .silencing:
            output.bus.clear(frames: frames)
        }
    }

    /// Moves the fade on by one block; the silencing block is the last.
    private func advancePhase(frames: Int) {
        switch phase {
        case .playing, .over:
            return
        case .fading(let remaining):
            phase = remaining > frames ? .fading(remaining: remaining - frames) : .silencing
        case .silencing:
            phase = .over
        }
    }

    /// All Sound Off (CC 120) on every channel at frame 0 of this block, so the
    /// instrument is silent when the engine is used again.
    private func appendAllSoundOff(count: inout Int) -> Int {
        var dropped = 0
        for channel in 0..<UInt8(16) {
            guard count < eventCapacity else { dropped += 1; continue }
            // Frame 0 sorts before everything already in the buffer: shift it up by one.
            (events + 1).update(from: events, count: count)
            events[0] = .controlChange(channel: channel, controller: 120, value: 0)
            count += 1
        }
        return dropped
    }

    /// Stereo bus → the device's interleaved channels: mono gets the average, channels
    /// past the second get silence.
    private func interleave() {
        if channels == 1 {
            for i in 0..<blockFrames { interleaved[i] = 0.5 * (output.left[i] + output.right[i]) }
            return
        }
        interleaved.update(repeating: 0, count: blockFrames * channels)
        for i in 0..<blockFrames {
            interleaved[i * channels] = output.left[i]
            interleaved[i * channels + 1] = output.right[i]
        }
    }
}
