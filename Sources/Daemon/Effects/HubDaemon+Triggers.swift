import MIDICore
import ALSA
import Control
import Hub
import SetupViews

/// Triggers (docs/mappings.md#triggers): the hub's own and the patch's, fired by mapped
/// presses, `triggers.fire` and `midihub trigger NAME`; the core fires them (`HubInput.fire`).
/// - Thread: owner (the MIDI input thread).
extension HubDaemon {
    /// Fires trigger `name` at `time` (the press's arrival, or now).
    /// - Throws: `ControlError` for an unknown trigger, a disabled one, or a scene it cannot switch to.
    /// - Thread: owner.
    func fireTrigger(named name: String, at time: HostTime) throws(ControlError) {
        let (clock, timing) = transportClock()
        try command(.fire(name, at: time, clock: clock, stamp: stampIfRecording()), timing: timing)
    }

    /// The ALSA ports a send trigger's selector names (midihub's own left out).
    func triggerPorts(_ selector: String) -> [PortDescriptor] {
        guard let selector = try? PortSelector(parsing: selector) else { return [] }
        return ports.descriptors.filter { port in
            port.direction.canReceive && port.address.client != client.clientID && !JackPortTable.isJack(port.address)
                && selector.matches(port)
        }
    }
}
