import MIDICore
import ALSA
import RenderCore
import Sequencer

/// The render thread's work: per period, gather the block's events (a schedule's and the
/// transport's at their exact frame, live ones one block after arrival), render them through the
/// engine's program, and write the block to the device, whose blocking write paces it.
///
/// Owns everything it touches in the loop (preallocated on control in `init`); shares
/// only `DriverState` atomics. Nothing in `run`'s loop allocates, locks or calls the
/// system, except the PCM write (and, once, the drop from realtime priority when the
/// `OverrunWatchdog` fires).
///
/// - Thread: render for `run`; `init` on control; `failure` is read on control
///   after the thread was joined.
final class RenderLoop: @unchecked Sendable {
    private enum Phase: Equatable {
        case playing
        /// Fading out after a stop request: frames left until silence.
        case fading(remaining: Int)
        /// Faded out: one more block carries All Sound Off, then the device drains.
        case silencing
    }

    private let device: PCMDevice
    private let engine: RenderEngine
    private let live: LiveInput
    private let sequenced: SequencedInput
    private let tap: AudioTap
    private var sequencedTiming = SequencedTiming()
    private let state: DriverState
    private var timing: LiveEventTiming
    private var cursor: ScheduleCursor?
    /// Frame where playback ends by itself (a sequence's end plus its tail); nil: live.
    private let endFrame: FramePosition?
    private let blockFrames: Int
    private let fadeFrames: Int
    private let sampleRate: Double
    private let output: AudioBuffer
    private let interleaved: UnsafeMutablePointer<Float>
    private let events: UnsafeMutablePointer<RenderEvent>
    private let eventCapacity: Int
    private var position = FramePosition.zero
    /// The live timeline (no schedule): beats advance at `DriverState`'s tempo, or as the
    /// transport's song says while one plays (`songPlays`).
    private var liveHost: HostSync
    private var songPlays = false
    private var phase = Phase.playing
    private var watchdog: OverrunWatchdog
    /// Why playback ended early (device gone, write failed); read after join.
    private(set) var failure: PCMError?

    /// - Thread: control (allocates).
    init(device: PCMDevice, engine: RenderEngine, live: LiveInput, sequenced: SequencedInput, tap: AudioTap, state: DriverState,
         schedule: RenderSchedule?, blockFrames: Int, options: AudioDriverOptions) {
        self.device = device
        self.engine = engine
        self.live = live
        self.sequenced = sequenced
        self.tap = tap
        self.state = state
        self.blockFrames = blockFrames
        sampleRate = Double(device.settings.sampleRate)
        timing = LiveEventTiming(sampleRate: device.settings.sampleRate)
        liveHost = HostSync(sampleRate: sampleRate, transport: .playing)
        cursor = schedule.map(ScheduleCursor.init(schedule:))
        endFrame = schedule.map { $0.endFrame + Int64(options.tailSeconds * Double(device.settings.sampleRate)) }
        fadeFrames = max(1, Int(options.fadeOutSeconds * sampleRate))
        output = AudioBuffer(channels: 2, capacity: blockFrames)
        interleaved = .allocate(capacity: blockFrames * device.settings.channels)
        eventCapacity = max(options.maxEventsPerBlock, 16)  // room for All Sound Off on 16 channels
        events = .allocate(capacity: eventCapacity)
        watchdog = OverrunWatchdog(blockFrames: blockFrames, sampleRate: device.settings.sampleRate)
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

    /// Plays until the sequence ends, a stop request has faded out, or the device fails;
    /// then drains the device (not after a failure).
    /// - Thread: render.
    func run() {
        defer { state.running.store(false, ordering: .releasing) }
        do {
            while try renderAndWriteBlock() {}
            try device.drain()
        } catch {
            failure = error
        }
    }

    /// One period. Returns false once playback is over.
    private func renderAndWriteBlock() throws(PCMError) -> Bool {
        if phase == .playing {
            if state.stopRequested.load(ordering: .acquiring) {
                phase = .fading(remaining: fadeFrames)
            } else if let endFrame, position >= endFrame {
                return false
            }
        }
        let blockStart = HostTime.now()
        var count = cursor?.events(from: position, frames: blockFrames, into: events, capacity: eventCapacity) ?? 0
        var dropped = sequencedTiming.collect(from: sequenced, start: position, frames: blockFrames,
                                              into: events, count: &count, capacity: eventCapacity)
        dropped += timing.collect(from: live.ring, blockStart: blockStart, frames: blockFrames,
                                     into: events, count: &count, capacity: eventCapacity)
        if phase == .silencing { dropped += appendAllSoundOff(count: &count) }
        if dropped > 0 { state.droppedEvents.add(dropped, ordering: .relaxed) }

        let host = hostSync()
        engine.render(frames: blockFrames, bus: output.bus, host: host,
                      sequenced: UnsafeBufferPointer(start: events, count: count))
        liveHost = host.advanced(by: blockFrames)
        applyFade()
        tap.push(output: output.bus, of: engine, frames: blockFrames)
        interleave()
        if watchdog.record(rendering: HostTime.now() - blockStart) {
            state.realtimeDropped.store(PCMRealtimePriority.dropForCurrentThread(), ordering: .releasing)
        }
        try device.write(frames: UnsafeBufferPointer(start: interleaved, count: blockFrames * device.settings.channels))
        position += Int64(blockFrames)
        state.framesRendered.store(position.index, ordering: .relaxed)
        return advancePhase()
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
    private func applyFade() {
        switch phase {
        case .playing:
            return
        case .fading(let remaining):
            let step = 1 / Float(fadeFrames)
            for i in 0..<blockFrames {
                let gain = max(0, Float(remaining - i) * step)
                output.left[i] *= gain
                output.right[i] *= gain
            }
        case .silencing:
            output.bus.clear(frames: blockFrames)
        }
    }

    /// Moves the fade on by one block. Returns false after the silencing block.
    private func advancePhase() -> Bool {
        switch phase {
        case .playing:
            return true
        case .fading(let remaining):
            phase = remaining > blockFrames ? .fading(remaining: remaining - blockFrames) : .silencing
            return true
        case .silencing:
            return false
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
        let channels = device.settings.channels
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
