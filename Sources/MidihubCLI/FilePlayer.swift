import ALSA
import Foundation
import MIDICore

/// Plays a `PlaybackSchedule` through an ALSA queue: feeds the kernel as fast
/// as its pool takes events, shows the position, and stops cleanly on a signal.
///
/// - Thread: the main thread (it owns the client).
struct FilePlayer {
    let session: SequencerSession
    var client: SeqClient { session.client }
    let schedule: PlaybackSchedule
    let tempoMap: TempoMap
    let destinations: [SeqAddress]
    /// Writes the position line; `nil` when stderr is not a terminal.
    let statusLine: StatusLine?

    enum Outcome: Equatable {
        case finished
        case interrupted(signal: Int32)
    }

    func play() throws -> Outcome {
        let port = try session.makeSendingPort(name: "play", connectedTo: destinations)
        let queue = try client.makeQueue(name: "midihub play")
        defer { try? client.free(queue) }
        try client.setTempo(queue, microsecondsPerQuarter: schedule.initialTempo, ticksPerQuarter: schedule.ticksPerQuarter)
        try client.start(queue)
        let duration = tempoMap.duration(at: Tick(UInt64(schedule.endTick))).seconds
        var next = 0
        var drained = false
        while true {
            if let signal = SignalTrap.caught {
                try stop(queue, from: port)
                return .interrupted(signal: signal)
            }
            while next < schedule.items.count, try output(schedule.items[next], queue: queue, from: port) {
                next += 1
            }
            if next == schedule.items.count { drained = try client.drainOutput() }
            let status = try client.status(of: queue)
            statusLine?.show(position: tempoMap.duration(at: Tick(UInt64(status.tick))).seconds, duration: duration)
            if drained && status.pendingEvents == 0 && status.tick >= schedule.endTick { break }
            if next < schedule.items.count || !drained {
                _ = try client.waitUntilWritable(milliseconds: 100)
            } else {
                usleep(50_000)  // everything is in the kernel's hands; a signal cuts the sleep short
            }
        }
        statusLine?.finish()
        return .finished
    }

    /// Queues one item; `false` when the kernel pool is full.
    private func output(_ item: PlaybackSchedule.Item, queue: SeqQueue, from port: SeqPort) throws -> Bool {
        let at = SeqSchedule.tick(queue, item.tick)
        switch item.action {
        case .message(let message):
            return try client.output(message, from: port, to: destinations[item.portIndex], schedule: at)
        case .tempo(let microseconds):
            return try client.outputTempo(microseconds, for: queue, from: port, schedule: at)
        }
    }

    /// Stops the queue, drops what is still scheduled, and silences every port:
    /// note-offs for sounding notes, then All Notes Off (CC 123) and Sustain off
    /// (CC 64 = 0) on every channel the file uses there.
    private func stop(_ queue: SeqQueue, from port: SeqPort) throws {
        let stoppedAt = try client.status(of: queue).tick
        try client.stop(queue)
        try client.removePendingOutput()
        statusLine?.finish()
        for note in schedule.soundingNotes(atTick: stoppedAt) {
            try client.send(.noteOff(channel: note.channel, note: note.note, velocity: 0),
                            from: port, to: destinations[note.portIndex])
        }
        for (portIndex, channels) in schedule.channelsByPort.sorted(by: { $0.key < $1.key }) {
            for channel in channels.sorted() {
                try client.send(.controlChange(channel: channel, controller: 123, value: 0), from: port, to: destinations[portIndex])
                try client.send(.controlChange(channel: channel, controller: 64, value: 0), from: port, to: destinations[portIndex])
            }
        }
    }
}

/// The `position / duration` line `play` redraws on a terminal.
///
/// - Thread: the main thread.
final class StatusLine {
    private var lastShown = ""

    /// A status line on stderr, or `nil` when stderr is not a terminal.
    static func onTerminal() -> StatusLine? {
        isatty(STDERR_FILENO) != 0 ? StatusLine() : nil
    }

    func show(position: Double, duration: Double) {
        let line = "\(Self.clock(min(position, duration))) / \(Self.clock(duration))"
        guard line != lastShown else { return }
        lastShown = line
        FileHandle.standardError.write(Data(("\r" + line).utf8))
    }

    func finish() {
        guard !lastShown.isEmpty else { return }
        FileHandle.standardError.write(Data("\n".utf8))
        lastShown = ""
    }

    /// `m:ss.s`
    static func clock(_ seconds: Double) -> String {
        let tenths = Int((max(0, seconds) * 10).rounded(.down))
        let minutes = tenths / 600
        let rest = tenths % 600
        return "\(minutes):" + (rest < 100 ? "0" : "") + "\(rest / 10).\(rest % 10)"
    }
}
