import Dispatch
import Foundation
import Hub
import MIDICore
import Sequencer

/// The `record` trigger (docs/transport.md#recording): records the MIDI that arrives from the
/// ports feeding the graph, as `midihub record` lays it out (a track per port, at the hub's
/// tempo, 480 ticks per quarter); firing it again writes the take to
/// `recordings/take-DATE.mid` beside the state file, off the MIDI path.
extension HubDaemon {
    /// Where takes are written: `recordings/` beside the state file.
    var recordingsFolder: String {
        URL(fileURLWithPath: options.statePath).deletingLastPathComponent().appendingPathComponent("recordings").path
    }

    /// Starts recording at `time`, or ends the take and writes it.
    /// - Thread: owner.
    func toggleRecording(at time: Double) {
        guard let take = recording else {
            recording = MIDIRecording(options: .init(beatsPerMinute: router.clock.beatsPerMinute, ticksPerQuarter: 480), sources: [])
            recordingStart = time
            recordingSources = [:]
            log.info("recording: started (fire 'record' again to write the take)")
            return
        }
        recording = nil
        let length = time - recordingStart
        let file = take.file(endingAt: length)
        let name = "take-" + Self.takeStamp() + ".mid"
        let folder = recordingsFolder
        let path = folder + "/" + name
        let count = take.count
        let log = log
        slowWork.enter()
        DispatchQueue.global(qos: .utility).async { [slowWork] in
            defer { slowWork.leave() }
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                try AtomicFile.write(file.smfBytes(), to: path)
                log.info("recording: wrote \(count) events (\(Int(length.rounded())) s) to \(path)")
            } catch {
                log.warning("recording: cannot write \(path): \(error) (fix: check free space and the permissions of \(folder))")
            }
        }
    }

    /// Keeps `message`, which arrived from the port at `address` at `time`, while recording.
    /// - Thread: owner (the MIDI path: no I/O).
    func recordLive(_ message: MIDIMessage, from address: PortAddress, at time: Double) {
        guard recording != nil else { return }
        let source = recordingSources[address] ?? {
            let name = ports.sender(at: address).map { "\($0.clientName):\($0.portName)" } ?? address.description
            let index = recording?.addSource(name) ?? 0
            recordingSources[address] = index
            return index
        }()
        recording?.record(message, seconds: time - recordingStart, source: source)
    }

    /// `2026-11-25-183012`, local time.
    private static func takeStamp() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        return formatter.string(from: Date())
    }
}
