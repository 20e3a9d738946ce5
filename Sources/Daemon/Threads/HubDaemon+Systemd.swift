import Control
import Glibc
import MIDICore

/// What the daemon tells systemd (`Type=notify`, see `SystemdNotifier`): `READY=1` once it
/// serves, its status (ports, nodes, audio) when that changes, `WATCHDOG=1` from the MIDI
/// input thread's loop, `STOPPING=1` when it stops.
extension HubDaemon {
    /// `READY=1`: the ports exist, the rules are applied and the input thread runs. Then the
    /// control socket answers the requests it held while the daemon started, and the
    /// `started` event goes to the subscribers (those that subscribed early among them).
    /// `READY=1` is sent from the owner, which keeps the notifier's pacing (`tick`).
    /// - Thread: control (main, at the end of `start`).
    func notifyReady() {
        try? perform { [self] in systemd?.ready(status: serviceStatus()) }
        log.flush()  // the start's own lines and events first
        control?.open(announcing: .started(version: MidihubVersion.current, pid: Int(getpid())))
    }

    /// `WATCHDOG=1` when due and `STATUS=` when it changed.
    /// - Thread: owner (the MIDI input thread), on every turn of its loop — so the watchdog proves
    ///   that loop alive (its poll waits at most 10 ms).
    func notifySystemd(now: HostTime) {
        systemd?.tick(now: now, status: serviceStatus)
    }

    /// `STOPPING=1`, and the `stopping` event (`reason`: what stops the daemon), which
    /// reaches the control clients before their socket closes.
    /// - Thread: control (main, as `stop` begins).
    func notifyStopping(reason: String) {
        systemd?.stopping(status: "stopping: silencing the synth, saving the state")
        log.publish(.stopping(reason: reason))
        log.flush()
    }

    /// One line for `systemctl status`: what the hub serves and where its audio goes.
    /// - Thread: owner.
    func serviceStatus() -> String {
        let serving = "serving \(ports.descriptors.count) ports, \(core.snapshot.graph.nodes.count) nodes"
        guard let audio else {
            return "\(serving); MIDI-only: no audio"
        }
        if audio.driver.isRunning {
            return "\(serving); audio: \(audio.driver.settings)"
        }
        return "\(serving); audio stopped, opening the device again"
    }
}
