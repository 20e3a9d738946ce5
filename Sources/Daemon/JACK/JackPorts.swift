import MIDICore
import Hub
import RtMidiBackend

/// What the bridge asks of its JACK port thread, in order.
/// - Thread: any (a plain value: made on the owner, done on the port thread).
enum JackPortWork: Sendable {
    /// Opens an output connected to the JACK destination `name` at `address` (nothing when
    /// one is open); a failure is logged unless `quietly`, and the open tried again when a
    /// message for it comes (at most once a second).
    case openOutput(PortAddress, name: JackPortName, on: JackClients, quietly: Bool)
    /// Closes the output at `address` (kept instead when its server went away meanwhile).
    case closeOutput(PortAddress)
    /// Writes `message` to the output at `address` (opened before).
    case send(MIDIMessage, to: PortAddress)
    /// Opens an input connected to the JACK source `name` at `address` and hands it to the
    /// owner (`JackPorts.openedInputs`).
    case openInput(PortAddress, name: JackPortName, on: JackClients)
    /// Closes `input` (kept instead when its server went away meanwhile).
    case closeInput(JackMIDIInput, on: JackClients)
    /// The server went away: every output is kept, never closed (libjack aborts the process
    /// when a port of a dead server is closed).
    case abandonOutputs
}

/// An input the port thread opened for the owner.
/// - Thread: any (handed from the port thread to the owner once).
struct OpenedJackInput: @unchecked Sendable {
    let address: PortAddress
    let input: JackMIDIInput
    /// The server connection it was opened on (`JackClients.identity`).
    let server: ObjectIdentifier
}

/// The daemon's JACK ports' side that waits on jackd: opening and closing ports (each one a
/// libjack client of RtMidi's, a round trip to the server and more) and writing to outputs
/// (RtMidi's `send` waits when its ring is full). It runs on the bridge's port thread
/// ("midihub-jack-ports", a `HandoffThread`), fed by the owner through a lock-free ring, so
/// the MIDI input thread never waits on JACK; the outputs live here, the inputs are handed
/// to the owner, which drains them.
///
/// - Thread: control (the JACK port thread, "midihub-jack-ports"), but `openedInputs`' consumer: owner.
final class JackPorts: @unchecked Sendable {
    /// The inputs opened, for the owner (which the `wakeup` it is given tells).
    let openedInputs = ValueRing<OpenedJackInput>(minimumCapacity: 64)
    private let log: DaemonLog
    private let ownPorts: ControlLock<Set<JackPortName>>
    private let wakeup: WakeupEvent?
    private var outputs: [PortAddress: (output: JackMIDIOutput, clients: JackClients)] = [:]
    /// Outputs asked for and not open, with what opens them and when it was last tried.
    private var wanted: [PortAddress: (name: JackPortName, clients: JackClients, tried: HostTime)] = [:]
    /// Ports of servers that went away: kept, never closed.
    private var abandoned: [AnyObject] = []
    /// How long a failed output open waits before a message tries it again.
    private static let retry: HostDuration = 1

    /// - Parameters:
    ///   - ownPorts: the names of the daemon's own ports, which the watch leaves out.
    ///   - wakeup: signalled when an input was opened (and by the inputs' events).
    init(log: DaemonLog, ownPorts: ControlLock<Set<JackPortName>>, wakeup: WakeupEvent?) {
        self.log = log
        self.ownPorts = ownPorts
        self.wakeup = wakeup
    }

    /// Does `items` in order; `lost` were dropped before (the ring was full).
    func run(_ items: [JackPortWork], lost: Int, now: HostTime) {
        for item in items { perform(item, now: now) }
        if lost > 0 { log.warning("\(lost) MIDI messages for JACK dropped: JACK took them slower than the hub sent them") }
    }

    private func perform(_ work: JackPortWork, now: HostTime) {
        switch work {
        case .openOutput(let address, let name, let clients, let quietly):
            guard outputs[address] == nil else { return }
            wanted[address] = (name, clients, now)
            openOutput(address, quietly: quietly)
        case .closeOutput(let address):
            wanted[address] = nil
            if let open = outputs.removeValue(forKey: address) { close(open.output, of: open.clients) }
        case .send(let message, let address):
            guard let output = outputs[address]?.output ?? retriedOutput(address, now: now) else { return }
            do {
                try output.send(message)
            } catch {
                log.warning("cannot send to \(output.connectedDestination?.description ?? "JACK"): \(error)")
            }
        case .openInput(let address, let name, let clients):
            openInput(address, name: name, clients: clients)
        case .closeInput(let input, let clients):
            close(input, of: clients)
        case .abandonOutputs:
            abandoned += outputs.values.map(\.output)
            outputs = [:]
            wanted = [:]
        }
    }

    private func retriedOutput(_ address: PortAddress, now: HostTime) -> JackMIDIOutput? {
        guard let want = wanted[address], now - want.tried >= Self.retry else { return nil }
        wanted[address]?.tried = now
        openOutput(address, quietly: false)
        return outputs[address]?.output
    }

    private func openOutput(_ address: PortAddress, quietly: Bool) {
        guard let want = wanted[address] else { return }
        do {
            let output = try ownPorts.withLock { own throws(JackMIDIError) in
                let output = try want.clients.client.openOutput(connectedTo: want.name, portName: "out")
                own.insert(output.name)
                do throws(JackMIDIError) {
                    try want.clients.connector.connect(output.name, to: want.name)
                } catch {
                    own.remove(output.name)
                    output.close()
                    throw error
                }
                return output
            }
            outputs[address] = (output, want.clients)
            wanted[address] = nil
        } catch {
            if !quietly { log.warning("cannot open a JACK port to \(want.name): \(error)") }
        }
    }

    private func openInput(_ address: PortAddress, name: JackPortName, clients: JackClients) {
        do {
            let input = try ownPorts.withLock { own throws(JackMIDIError) in
                let input = try clients.client.openInput(connectedTo: name, portName: "in") { [wakeup] in wakeup?.signal() }
                own.insert(input.name)
                do throws(JackMIDIError) {
                    try clients.connector.connect(name, to: input.name)
                } catch {
                    own.remove(input.name)
                    input.close()
                    throw error
                }
                return input
            }
            openedInputs.push(OpenedJackInput(address: address, input: input, server: clients.identity))
            wakeup?.signal()
        } catch {
            log.warning("cannot carry \(name) into the hub: \(error)")
        }
    }

    /// Closes one of the daemon's ports, `port`, on the server of `clients`; a port of a
    /// server that went away is kept instead (see `JackWatch`).
    private func close(_ port: some JackOwnPort, of clients: JackClients) {
        guard !clients.connector.serverIsGone else {
            abandoned.append(port)
            return
        }
        ownPorts.withLock { _ = $0.remove(port.name) }
        port.close()
    }
}

/// A port of the daemon's own, which it closes when nothing uses it.
/// - Thread: any (the ports serialise their calls).
protocol JackOwnPort: AnyObject {
    var name: JackPortName { get }
    func close()
}

extension JackMIDIInput: JackOwnPort {}
extension JackMIDIOutput: JackOwnPort {}
