import AudioHost
import CJackProbe
import Foundation
import Glibc
import MIDICore
import Testing
import TestSupport

/// JACK MIDI at its frame (docs/jack.md, "JACK MIDI at its frame"): the hub's JACK client
/// reads a JACK MIDI source in its process callback and plays the synth at the frame the
/// source gave the note, in the same period. Measured in JACK's own frames by two clients of
/// the test's (`CJackProbe`): the keys send a note-on at frame 100 of a period, the ears
/// hear the hub's output; against `jackd -d dummy` with 256-frame periods.
extension JackMIDITests {
    @Test func jackMIDIPlaysTheSynthAtItsFrameInThePeriodItWasSent() throws {
        try withJackServer { _ in
            let ports = JackAudioPorts()
            let (driver, _) = try synthInJack(client: "hub-lane", destination: "default", inputs: ports)
            defer { try? driver.stop() }
            let probe = try #require(midihub_jack_probe_open("probe", 100, 69), "the probe's JACK clients did not open")
            defer { midihub_jack_probe_close(probe) }
            ports.readMIDI([JackMIDILane.Input(key: 7, source: "probe-keys:out", routes: [.init(node: 0, channelMask: 0xFFFF)])]) {
                Issue.record("reported: \($0)")
            }
            #expect(try JackTestServer.runTool("jack_connect", ["hub-lane:left", "probe-ears:in"]) == 0)
            try driver.waitUntil({ ((try? Self.jackConnections(of: "hub-lane:from-probe-keys:out")) ?? []) == ["probe-keys:out"] },
                                 message: "the hub's MIDI port was not connected from probe-keys:out: \((try? Self.jackPorts(["-c"])) ?? [])")

            #expect(ports.midi.owns("hub-lane:from-probe-keys:out"), "the lane's port is one the daemon's port listings leave out")
            #expect(!ports.midi.owns("probe-keys:out"))
            midihub_jack_probe_fire(probe)
            try driver.waitUntil({ midihub_jack_probe_heard(probe) >= 0 }, message: "the note sent through JACK MIDI was never heard")
            let sent = midihub_jack_probe_sent(probe), heard = midihub_jack_probe_heard(probe)
            let period = Int64(midihub_jack_probe_period(probe))
            #expect(sent % period == 100, "the keys sent at frame \(sent % period) of the period")
            #expect(heard - sent >= 0 && heard - sent < 8,
                    "heard \(heard - sent) frames after it was sent (the same period, at its frame: 0 to a few frames of attack)")

            // The owner gets every message after, told that the synth already played it.
            var received: [JackMIDILane.Received] = []
            try driver.waitUntil({
                ports.midi.drain(into: &received)
                return received.count >= 2
            }, message: "the owner got \(received) from the lane")
            #expect(received.map(\.key) == [7, 7])
            #expect(received.map(\.message) == [.noteOn(channel: 0, note: 69, velocity: 110), .noteOff(channel: 0, note: 69, velocity: 0)])
            #expect(received.allSatisfy { $0.servedUnits && !$0.servedPorts })

            // A source the owner routes itself (no direct node): heard only through the owner.
            ports.readMIDI([JackMIDILane.Input(key: 7, source: "probe-keys:out", routes: [])]) { Issue.record("reported: \($0)") }
            try driver.waitUntil({ midihub_jack_probe_quiet_frames(probe) > 4_800 }, message: "the first note never ended")
            midihub_jack_probe_fire(probe)
            try driver.waitUntil({ midihub_jack_probe_sent(probe) >= 0 }, message: "the keys did not send again")
            usleep(200_000)
            #expect(midihub_jack_probe_heard(probe) < 0, "a source with no direct route still played the synth")
            try driver.waitUntil({
                ports.midi.drain(into: &received)
                return received.count >= 3
            }, message: "the owner did not get the note a source with no direct route sent")
            #expect(received.last?.servedUnits == false)
        }
    }

    /// JACK MIDI through the hub to a JACK port (an external node the source reaches
    /// straight): written into the hub's `to-` port in the same period, at the same frame.
    @Test func jackMIDIGoesOnToAJackPortAtItsFrameInThePeriodItWasSent() throws {
        try withJackServer { _ in
            let ports = JackAudioPorts()
            let (driver, _) = try synthInJack(client: "hub-thru", destination: "default", inputs: ports)
            defer { try? driver.stop() }
            let probe = try #require(midihub_jack_probe_open("thru", 37, 64), "the probe's JACK clients did not open")
            defer { midihub_jack_probe_close(probe) }
            ports.readMIDI([JackMIDILane.Input(key: 7, source: "thru-keys:out",
                                               routes: [.init(port: "thru-ears:midi_in", key: 9, channelMask: 0xFFFF)])]) {
                Issue.record("reported: \($0)")
            }
            try driver.waitUntil({ ((try? Self.jackConnections(of: "hub-thru:to-thru-ears:midi_in")) ?? []) == ["thru-ears:midi_in"]
                                   && ((try? Self.jackConnections(of: "hub-thru:from-thru-keys:out")) ?? []) == ["thru-keys:out"] },
                                 message: "the hub's MIDI ports were not connected: \((try? Self.jackPorts(["-c"])) ?? [])")
            midihub_jack_probe_fire(probe)
            try driver.waitUntil({ midihub_jack_probe_heard_midi(probe) >= 0 }, message: "the note never reached thru-ears:midi_in")
            #expect(midihub_jack_probe_heard_midi(probe) == midihub_jack_probe_sent(probe),
                    "sent at \(midihub_jack_probe_sent(probe)), at midi_in at \(midihub_jack_probe_heard_midi(probe))")
            #expect(midihub_jack_probe_heard(probe) < 0, "the synth has no route from the source")
            var received: [JackMIDILane.Received] = []
            try driver.waitUntil({
                ports.midi.drain(into: &received)
                return !received.isEmpty
            }, message: "the owner got nothing from the lane")
            #expect(received.first?.servedPorts == true && received.first?.servedUnits == false)

            // A malformed event (no status byte) before the next note goes nowhere: the note is
            // the first thing midi_in gets.
            try driver.waitUntil({ midihub_jack_probe_quiet_frames(probe) > 4_800 }, message: "the thru probe's period never went by")
            midihub_jack_probe_fire_after_stray_bytes(probe)
            try driver.waitUntil({ midihub_jack_probe_heard_midi(probe) >= 0 || midihub_jack_probe_first_midi_byte(probe) >= 0 },
                                 message: "nothing reached thru-ears:midi_in after the stray bytes and the note")
            #expect(midihub_jack_probe_first_midi_byte(probe) == 0x90,
                    "midi_in's first event began with \(midihub_jack_probe_first_midi_byte(probe)), not the note-on's status")
        }
    }
}
