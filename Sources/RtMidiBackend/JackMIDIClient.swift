import Synchronization

/// midihub's entry to JACK MIDI through RtMidi: lists the JACK MIDI ports and opens
/// ports of midihub's own.
///
/// RtMidi makes one JACK client per port, named `clientName` (JACK appends `-01`,
/// `-02`… when the name is taken), plus two for listing; the port names this client
/// returns are the real ones JACK assigned.
///
/// - Thread: any (listing and opening are serialised by a mutex).
public final class JackMIDIClient: Sendable {
    /// The JACK client name the opened ports are grouped under.
    public let clientName: String

    private struct Listers {
        let sources: RtMidiDevice
        let destinations: RtMidiDevice
    }

    private let listers: Mutex<Listers>

    /// Connects to the JACK server (`$JACK_DEFAULT_SERVER`, else "default") without
    /// starting one.
    /// - Throws: `JackMIDIError.unavailable` with `JackAvailability`'s one-line reason
    ///   when no server answers; `.rtMidi` when RtMidi cannot make its clients.
    /// - Thread: any.
    public init(clientName: String = "midihub") throws(JackMIDIError) {
        if case .unavailable(let reason) = JackAvailability.probe() {
            throw .unavailable(reason: reason)
        }
        self.clientName = clientName
        let sources = try RtMidiDevice(.input(queueSize: 1), clientName: clientName)
        let destinations = try RtMidiDevice(.output, clientName: clientName)
        listers = Mutex(Listers(sources: sources, destinations: destinations))
    }

    /// The JACK MIDI ports present now, midihub's own included, in JACK's order.
    /// - Thread: any.
    public func ports() throws(JackMIDIError) -> JackPortList {
        try listers.withLock { listers throws(JackMIDIError) in try Self.list(listers) }
    }

    /// Registers a JACK input port named `portName` that other clients connect to.
    /// - Parameters:
    ///   - inboxCapacity: undrained events kept (64 bytes each: notes take 13, a SysEx message its length and 10) before new ones are dropped and counted.
    ///   - onEvents: called on JACK's process thread after new events were queued; must
    ///     not block (e.g. write to an eventfd the owner polls).
    /// - Thread: any.
    public func openVirtualInput(
        named portName: String, inboxCapacity: Int = 4096, onEvents: (@Sendable () -> Void)? = nil
    ) throws(JackMIDIError) -> JackMIDIInput {
        let inbox = JackMIDIInbox(capacity: inboxCapacity, onEvents: onEvents)
        let device = try RtMidiDevice(.input(queueSize: 1), clientName: clientName)
        device.deliverInput(to: inbox)
        let name = try registering(portName, direction: .destination) { () throws(JackMIDIError) in
            try device.openVirtualPort(portName)
        }
        return JackMIDIInput(device: device, inbox: inbox, name: name, connectedSource: nil)
    }

    /// Registers a JACK output port named `portName` that other clients connect to.
    /// - Thread: any.
    public func openVirtualOutput(named portName: String) throws(JackMIDIError) -> JackMIDIOutput {
        let device = try RtMidiDevice(.output, clientName: clientName)
        let name = try registering(portName, direction: .source) { () throws(JackMIDIError) in
            try device.openVirtualPort(portName)
        }
        return JackMIDIOutput(device: device, name: name, connectedDestination: nil)
    }

    /// Registers a JACK input port named `portName`, connected to the existing `source`.
    /// - Throws: `JackMIDIError.portNotFound` listing the sources present when there
    ///   is no such source.
    /// - Thread: any.
    public func openInput(
        connectedTo source: JackPortName, portName: String, inboxCapacity: Int = 4096,
        onEvents: (@Sendable () -> Void)? = nil
    ) throws(JackMIDIError) -> JackMIDIInput {
        let inbox = JackMIDIInbox(capacity: inboxCapacity, onEvents: onEvents)
        let device = try RtMidiDevice(.input(queueSize: 1), clientName: clientName)
        device.deliverInput(to: inbox)
        let name = try registering(portName, direction: .destination) { () throws(JackMIDIError) in
            try Self.open(device, connectedTo: source, direction: .source, portName: portName)
        }
        return JackMIDIInput(device: device, inbox: inbox, name: name, connectedSource: source)
    }

    /// Registers a JACK output port named `portName`, connected to the existing `destination`.
    /// - Throws: `JackMIDIError.portNotFound` listing the destinations present when
    ///   there is no such destination.
    /// - Thread: any.
    public func openOutput(connectedTo destination: JackPortName, portName: String) throws(JackMIDIError) -> JackMIDIOutput {
        let device = try RtMidiDevice(.output, clientName: clientName)
        let name = try registering(portName, direction: .source) { () throws(JackMIDIError) in
            try Self.open(device, connectedTo: destination, direction: .destination, portName: portName)
        }
        return JackMIDIOutput(device: device, name: name, connectedDestination: destination)
    }

    /// Opens `device`'s port connected to `target`, found by name in `device`'s own
    /// listing (RtMidi opens by index).
    private static func open(
        _ device: RtMidiDevice, connectedTo target: JackPortName, direction: JackPortDirection, portName: String
    ) throws(JackMIDIError) {
        let names = try device.portNames()
        guard let index = names.firstIndex(of: target.fullName) else {
            throw .portNotFound(target, direction: direction, available: names.map(JackPortName.init(jackName:)))
        }
        try device.openPort(index: index, portName: portName, target: target.description)
    }

    /// Runs `open` and returns the full JACK name of the port it registered: the one
    /// named `portName` that was not listed before (JACK may have renamed the client).
    private func registering(
        _ portName: String, direction: JackPortDirection, _ open: () throws(JackMIDIError) -> Void
    ) throws(JackMIDIError) -> JackPortName {
        try listers.withLock { listers throws(JackMIDIError) in
            let before = Set(try Self.list(listers).ports(direction))
            try open()
            let after = try Self.list(listers).ports(direction)
            let new = after.filter { !before.contains($0) && $0.port == portName }
            return new.first ?? JackPortName(jackName: "\(clientName):\(portName)")
        }
    }

    private static func list(_ listers: Listers) throws(JackMIDIError) -> JackPortList {
        JackPortList(
            sources: try listers.sources.portNames().map(JackPortName.init(jackName:)),
            destinations: try listers.destinations.portNames().map(JackPortName.init(jackName:))
        )
    }
}
