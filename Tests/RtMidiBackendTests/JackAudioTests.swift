import ALSA
import AllocationCounter
import AudioHost
import CJackProbe
import Daemon
import Foundation
import Glibc
import RenderCore
import Sequencer
import SoundMeasures
import Synchronization
import Synth
import Testing

/// The hub's sound as a JACK client (`AudioDriver` with `AudioTarget.jack`), against a real
/// `jackd -d dummy` and `jack_rec` recording its ports. In the JACK suite: one server at a time.
extension JackMIDITests {
    static let presetFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("patches/presets").path

    /// A driver playing the built-in synth (and `more` after it) into JACK as `client`, its
    /// ports connected to `destination`.
    func synthInJack(client: String, destination: String, more: [any Node] = [],
                             inputs: JackAudioPorts? = nil) throws -> (AudioDriver, RenderEngine) {
        let driver = try AudioDriver(target: .jack(client: client, destination: destination),
                                     options: AudioDriverOptions(realtimePriority: false, jackPorts: inputs))
        let engine = RenderEngine()
        engine.install(RenderProgram(nodes: [SynthNode(bank: try PresetBankLoader.load(directory: Self.presetFolder))] + more,
                                     format: driver.renderFormat))
        try driver.start(engine: engine)
        return (driver, engine)
    }

    @Test func aNotePlayedLiveIsInWhatAJackClientRecordsFromTheHubsPorts() throws {
        try withJackServer { _ in
            let (driver, _) = try synthInJack(client: "hub-audio", destination: "default")
            defer { try? driver.stop() }
            #expect(driver.settings.sampleRate == 48_000 && driver.settings.periodFrames == 256)
            #expect(driver.isRunning)
            #expect(driver.live.push(.noteOn(channel: 0, note: 69, velocity: 110)))
            let recording = FileManager.default.temporaryDirectory.appendingPathComponent("midihub-jackrec-\(getpid()).wav")
            defer { try? FileManager.default.removeItem(at: recording) }
            let status = try JackTestServer.runTool("jack_rec", ["-f", recording.path, "-d", "1", "-b", "16",
                                                                  "hub-audio:left", "hub-audio:right"])
            #expect(status == 0, "jack_rec exited with \(status)")
            let left = try Self.leftChannel(ofWAV: recording)
            let sounding = Array(left.drop { abs($0) < 0.01 })
            #expect(sounding.count > 24_000, "jack_rec took \(left.count) frames, \(sounding.count) of them after the onset")
            let period = try #require(NoteMeasures.period(of: Array(sounding.prefix(24_000)), rate: 48_000))
            #expect(abs(48_000 / period - 440) < 2, "the note's pitch: \(48_000 / period) Hz")
        }
    }

    @Test func thePortsConnectToThePlaybackTheDestinationNames() throws {
        try withJackServer { _ in
            let (driver, _) = try synthInJack(client: "hub-out", destination: "default")
            #expect(driver.jackConnections == ["system:playback_1", "system:playback_2"])
            let (second, _) = try synthInJack(client: "hub-two", destination: "jack:hub-out:*")
            // hub-out's ports are outputs, not inputs: nothing matches, and nothing is connected.
            #expect(second.jackConnections == [])
            let (third, _) = try synthInJack(client: "hub-three", destination: "jack:system:playback_2")
            #expect(third.jackConnections == ["system:playback_2"])
            for each in [driver, second, third] { try each.stop() }
            #expect(!driver.isRunning)
            let ports = try Self.jackPorts()
            #expect(ports.contains("system:playback_1") && !ports.contains("hub-out:left"), "jack_lsp after stop: \(ports)")
        }
    }

    @Test func aServerThatStopsEndsPlaybackWithOneLineAndNoServerIsOneLineToo() throws {
        try withJackServer { server in
            let (driver, _) = try synthInJack(client: "hub-gone", destination: "default")
            server.kill()
            try driver.waitUntil({ !driver.isRunning }, message: "the driver still runs after jackd was killed")
            let failure = try #require(driver.failure)
            guard case .jackStopped = failure else { Issue.record("failure: \(failure)"); return }
            #expect(failure.description.contains("MIDI goes on") && !failure.description.contains("\n"))
            try driver.stop()
        }
        #expect {
            _ = try AudioDriver(target: .jack(client: "hub-none", destination: "default"))
        } throws: { error in
            "\(error)" == "no JACK audio: no JACK server running "
                + "(fix: start jackd or your session manager, or serve with --audio alsa)"
        }
    }

    /// JACK's process thread renders the graph without allocating — the synth, a node
    /// reading other apps' sound from the client's input ports and one writing a second
    /// output's ports — counted over 500 periods
    /// from the 100th, while live notes stream in. With one allocation put in the
    /// window (`allocating`), the count sees it: a counter blind to JACK's thread would not pass.
    @Test(arguments: [false, true])
    func jacksProcessThreadRendersWithoutAllocating(allocating: Bool) throws {
        try withJackServer { _ in
            let window = AllocationWindow(from: 100, periods: 500, allocatesOnce: allocating)
            // Another app's sound too: a node reading the input ports JACK's dummy capture feeds.
            let inputs = JackAudioPorts()
            let capture = JackInputNode(name: "app", source: "jack:system:capture_*", matches: { $0.hasPrefix("system:capture_") },
                                        host: inputs, report: { Issue.record("reported: \($0)") })
            let cue = JackOutputNode(name: "cue", destination: "jack:system:playback_2", host: inputs,
                                     report: { Issue.record("reported: \($0)") })
            var notes = 0, laneNotes = 0
            let counted = try AllocationCounter.session {
                let (driver, _) = try synthInJack(client: "hub-alloc", destination: "default", more: [capture, cue, window], inputs: inputs)
                try driver.waitUntil({ Set(["hub-alloc:app-left", "hub-alloc:cue-left"]).isSubset(of: (try? Self.jackPorts()) ?? []) },
                                     message: "the input and output nodes' ports were not registered")
                // JACK MIDI routed at its frame too: the probe's keys play the synth and its ears' MIDI input through the lane.
                let probe = try #require(midihub_jack_probe_open("alloc-probe", 10, 60), "the probe's JACK clients did not open")
                defer { midihub_jack_probe_close(probe) }
                inputs.readMIDI([JackMIDILane.Input(key: 1, source: "alloc-probe-keys:out", routes: [
                    .init(node: 0, channelMask: 0xFFFF), .init(port: "alloc-probe-ears:midi_in", key: 2, channelMask: 0xFFFF),
                ])]) {
                    Issue.record("reported: \($0)")
                }
                try driver.waitUntil({ ((try? Self.jackConnections(of: "hub-alloc:from-alloc-probe-keys:out")) ?? []).count == 1
                                       && ((try? Self.jackConnections(of: "hub-alloc:to-alloc-probe-ears:midi_in")) ?? []).count == 1 },
                                     message: "the lane's ports were not connected")
                var laneEvents: [JackMIDILane.Received] = []
                try driver.waitUntil({
                    let note = UInt8(40 + notes % 40)
                    driver.live.push(.noteOn(channel: 0, note: note, velocity: 90))
                    driver.live.push(.noteOff(channel: 0, note: note))
                    midihub_jack_probe_fire(probe)
                    inputs.midi.drain(into: &laneEvents)
                    if window.counting.load(ordering: .acquiring) { laneNotes += laneEvents.count }
                    laneEvents.removeAll(keepingCapacity: true)
                    if window.counting.load(ordering: .acquiring) { notes += 1 }
                    return window.finished.load(ordering: .acquiring)
                }, message: "the counted periods never ended (\(driver.counters.framesRendered) frames rendered)")
                try driver.stop()
            }
            #expect(notes > 100, "live notes streamed in while counting: \(notes)")
            #expect(laneNotes > 20, "JACK MIDI notes came through the lane while counting: \(laneNotes)")
            if allocating {
                #expect(counted >= 1, "the counter did not see JACK's process thread allocate")
            } else {
                #expect(counted == 0, "JACK's process thread allocated \(counted) times in 500 periods")
            }
        }
    }

    /// The hub's transport moves JACK's, and as timebase master it gives JACK's clients its
    /// bars and beats: `jack_showtime` (a real JACK client) sees it roll, with a BBT position.
    @Test func leadingJacksTransportRollsItWithTheHubsBarsAndBeats() throws {
        try withJackServer { _ in
            let (driver, _) = try synthInJack(client: "hub-lead", destination: "default")
            defer { try? driver.stop() }
            // Another client (jack_transport) locates JACK's transport: the hub's client reads it.
            try Self.jackTransport("locate 384000")
            try driver.waitUntil({ driver.jackTransport?.seconds == 8 },
                                 message: "the hub's client did not see JACK's transport at 8 s: \(String(describing: driver.jackTransport))")
            #expect(driver.jackTransport?.rolling == false)
            #expect(driver.leadJackTransport(true))
            driver.moveJackTransport(rolling: true, seconds: 2)
            let rolling = try Self.showtimeLine { $0.contains("state: Rolling") }
            let line = try #require(rolling, "jack_showtime never saw JACK's transport roll")
            #expect(line.contains("BBT:"), "no bars and beats from the hub: \(line)")
            let frame = try #require(line.split(separator: " ").dropFirst(2).first.flatMap { Int($0) }, "\(line)")
            #expect(frame >= 96_000, "JACK's transport was not moved to 2 s: \(line)")
            driver.moveJackTransport(rolling: false, seconds: 0)
            #expect(try Self.showtimeLine { $0.contains("state: Stopped") } != nil, "jack_showtime never saw it stop")
            // The hub's live timeline reads back through JACK: JACK's transport gives its frame.
            #expect(driver.jackTransport?.rolling == false)
        }
    }

    /// Runs `jack_transport` with `command` on its input.
    static func jackTransport(_ command: String) throws {
        let process = Process()
        process.executableURL = try JackTestServer.tool("jack_transport")
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data((command + "\n").utf8))
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The first line `jack_showtime` prints that `matches`, looking for at most 10 s (a
    /// deadline, not a timing check: a client's start takes long on a busy machine).
    static func showtimeLine(_ matches: (String) -> Bool) throws -> String? {
        for _ in 0..<20 {
            if let line = try showtime().last(where: matches) { return line }
        }
        return nil
    }

    /// What `jack_showtime` prints in half a second.
    static func showtime() throws -> [String] {
        let process = Process()
        process.executableURL = try JackTestServer.tool("stdbuf")  // line by line: it is killed, not ended
        process.arguments = ["-oL", try JackTestServer.tool("jack_showtime").path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        usleep(500_000)
        kill(process.processIdentifier, SIGKILL)  // it ignores SIGTERM
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    /// The lines `jack_lsp` prints with `arguments` (none: the ports).
    static func jackPorts(_ arguments: [String] = []) throws -> [String] {
        let process = Process()
        process.executableURL = try JackTestServer.tool("jack_lsp")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.split(separator: "\n").map(String.init)
    }

    /// The first channel of a 16-bit PCM WAV file (jack_rec's), as -1…1.
    static func leftChannel(ofWAV url: URL) throws -> [Double] {
        try channels(ofWAV: url)[0]
    }

    /// Each channel of a 16-bit PCM WAV file (jack_rec's), as -1…1.
    static func channels(ofWAV url: URL) throws -> [[Double]] {
        let data = [UInt8](try Data(contentsOf: url))
        func word(_ at: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 | Int(data[at + $1]) << (8 * $1) } }
        var offset = 12
        var channels = 2
        while offset + 8 <= data.count {
            let id = String(decoding: data[offset..<offset + 4], as: UTF8.self), size = word(offset + 4, 4)
            if id == "fmt " { channels = word(offset + 10, 2) }
            if id == "data" {
                let body = data[(offset + 8)..<min(data.count, offset + 8 + size)]
                return (0..<channels).map { channel in
                    stride(from: body.startIndex + 2 * channel, to: body.endIndex - 1, by: 2 * channels).map {
                        Double(Int16(bitPattern: UInt16(data[$0]) | UInt16(data[$0 + 1]) << 8)) / 32_768
                    }
                }
            }
            offset += 8 + size + (size & 1)
        }
        throw JackTestServer.Failure(description: "\(url.path) has no data chunk")
    }
}

/// The last node of a program: counts the allocations of the thread that renders it (JACK's
/// process thread) from its `from`th block for `periods` blocks.
private final class AllocationWindow: Node, @unchecked Sendable {
    let descriptor = NodeDescriptor(kind: .effect, subtype: "allw", manufacturer: "test", name: "allocation window", version: 1)
    let parameters: [ParameterInfo] = []
    let outputs: [OutputInfo] = []
    let outputValues = OutputValues()
    private(set) var preparedFormat: RenderFormat?
    let counting = Atomic<Bool>(false)
    let finished = Atomic<Bool>(false)
    private let from: Int, periods: Int, allocatesOnce: Bool
    private var blocks = 0

    init(from: Int, periods: Int, allocatesOnce: Bool) {
        self.from = from
        self.periods = periods
        self.allocatesOnce = allocatesOnce
    }

    func prepare(format: RenderFormat) { preparedFormat = format }

    /// - Thread: render.
    func process(_ context: ProcessContext) {
        blocks += 1
        if blocks == from {
            AllocationCounter.watchCurrentThread()
            counting.store(true, ordering: .releasing)
        } else if blocks == from + 1, allocatesOnce {
            let array = [Int](repeating: blocks, count: context.frames + 100)
            precondition(array.count > 100)
        } else if blocks == from + periods {
            AllocationCounter.stopWatching()
            finished.store(true, ordering: .releasing)
        }
    }
}

extension AudioDriver {
    /// Polls `condition` for at most 10 s (a deadline, not a timing check).
    func waitUntil(_ condition: () -> Bool, message: String) throws {
        for _ in 0..<1000 {
            if condition() { return }
            usleep(10_000)
        }
        guard condition() else { throw JackTestServer.Failure(description: message) }
    }
}

/// `serve --audio`'s choice (docs/jack.md): `auto` plays into JACK while a server answers,
/// else to the ALSA device, saying which in one line; `jack` and `alsa` ask nothing.
extension JackMIDITests {
    @Test func audioAutoChoosesJackWhileAServerRunsAndALSAOtherwise() throws {
        let (withServer, said) = try withJackServer { _ in AudioBackendChoice.auto.target(device: "default", clientName: "midihub") }
        #expect(withServer == .jack(client: "midihub", destination: "default"))
        #expect(said == "audio: --audio auto: a JACK server runs, playing into JACK")
        let (without, saidWithout) = AudioBackendChoice.auto.target(device: "hw:1,0", clientName: "midihub")
        #expect(without == .alsa(device: "hw:1,0"))
        #expect(saidWithout == "audio: --audio auto: no JACK server, playing to the ALSA device hw:1,0")
        #expect(AudioBackendChoice.jack.target(device: "jack:system:*", clientName: "hub") == (.jack(client: "hub", destination: "jack:system:*"), nil))
        #expect(AudioBackendChoice.alsa.target(device: "hw:1,0", clientName: "hub") == (.alsa(device: "hw:1,0"), nil))
    }
}
