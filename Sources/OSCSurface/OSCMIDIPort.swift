import ALSA
import MIDICore

/// MIDI by OSC (`m` arguments): the OSC server's own sequencer client "midihub osc" and its
/// port "osc". `/midi m` plays into whatever is connected to that port (the hub, by a rule
/// or a patch, as any app's port); `/midi/PORT m` goes straight to the ALSA port PORT named
/// as aconnect names it; what reaches the port (the hub routes to it, or another program
/// connects) goes to every registered surface as `/midi m`.
///
/// - Thread: control (the OSC server's thread, which owns it).
final class OSCMIDIPort {
    private let client: SeqClient
    private let port: SeqPort
    /// Where each `/midi/PORT` went the last time, by the text it named (ports are listed
    /// again only for a name not seen before, or one whose port went away).
    private var resolved: [String: SeqAddress] = [:]

    static let clientName = "midihub osc"
    static let portName = "osc"

    /// Opens the client and its port.
    /// - Throws: `ALSAError` when the sequencer cannot be opened (no `snd-seq`).
    init() throws(ALSAError) {
        client = try SeqClient(name: Self.clientName)
        port = try client.createPort(name: Self.portName, capabilities: [.source, .destination, .duplex])
    }

    /// The descriptors to poll for what reaches the port.
    var descriptors: [Int32] { client.inputDescriptors }

    /// The messages that reached the port since the last call.
    func received() -> [MIDIMessage] {
        var messages: [MIDIMessage] = []
        while let event = try? client.receivePending() {
            if case .message(let message, _, _) = event { messages.append(message) }
        }
        return messages
    }

    /// Plays `messages` out of the port, to whatever is connected to it.
    /// - Throws: a line when the sequencer refused them or a receiver's input is full.
    func play(_ messages: [MIDIMessage]) throws(OSCSurfaceError) {
        let played: Bool
        do {
            played = try output(messages, to: nil)
        } catch {
            throw OSCSurfaceError("MIDI could not be played: \(error)", fix: "check that snd-seq is loaded")
        }
        guard played else { throw OSCSurfaceError("MIDI was not played: a receiver's input is full", fix: "send less at once") }
    }

    /// Sends `messages` to the ALSA port `name` names (`20:0`, `FLUID Synth`, `Midi_Through:0`:
    /// an `_` stands for a space when the name as written matches nothing).
    /// - Throws: a line naming the port that matched nothing, more than one, or refused.
    func send(_ messages: [MIDIMessage], to name: String) throws(OSCSurfaceError) {
        let destination = try address(of: name)
        let sent: Bool
        do {
            sent = try output(messages, to: destination)
        } catch {
            resolved[name] = nil  // the port may have gone: look again next time
            throw OSCSurfaceError("MIDI could not be sent to \(name): \(error)", fix: "check the port with midihub ports")
        }
        guard sent else { throw OSCSurfaceError("MIDI was not sent to \(name): its input is full", fix: "send less at once") }
    }

    /// Hands `messages` to the kernel at once; false (nothing more sent) when a pool is full.
    private func output(_ messages: [MIDIMessage], to destination: SeqAddress?) throws(ALSAError) -> Bool {
        for message in messages {
            guard try client.output(message, from: port, to: destination) else {
                client.dropBufferedOutput()
                return false
            }
        }
        guard try client.drainOutput() else {
            client.dropBufferedOutput()
            return false
        }
        return true
    }

    private func address(of name: String) throws(OSCSurfaceError) -> SeqAddress {
        if let known = resolved[name] { return known }
        let ports: [SeqPortInfo]
        do {
            ports = try client.ports().filter { $0.address.client != port.address.client }
        } catch {
            throw OSCSurfaceError("cannot list the sequencer's ports: \(error)", fix: "check that snd-seq is loaded")
        }
        let resolver = PortResolver(ports: ports)
        let found: SeqPortInfo
        do {
            found = try resolver.resolve(name)
        } catch {
            guard name.contains("_"), let spaced = try? resolver.resolve(String(name.map { $0 == "_" ? " " : $0 })) else {
                throw OSCSurfaceError("/midi/\(name): \(error.problem)", fix: "name a port as midihub ports lists it, a space written _")
            }
            found = spaced
        }
        resolved[name] = found.address
        return found.address
    }
}
