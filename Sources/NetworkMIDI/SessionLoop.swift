import MIDICore
import NIOCore
import NIOPosix
import RTPMIDI

/// The session host and what it acts through, confined to the host's event loop: it feeds
/// the host what arrives, the clock and the ports' MIDI, and carries out its effects.
///
/// - Thread: the host's event loop (every member).
final class SessionLoop {
    var host: SessionHost
    private let events: @Sendable (NetworkHost.Event) -> Void
    private var control: (any Channel)?
    private var data: (any Channel)?
    private var ports: SessionPorts?

    init(host: SessionHost, events: @escaping @Sendable (NetworkHost.Event) -> Void) {
        (self.host, self.events) = (host, events)
    }

    func attach(control: any Channel, data: any Channel, ports: SessionPorts) {
        (self.control, self.data, self.ports) = (control, data, ports)
    }

    /// Microseconds of the monotonic clock.
    private var now: UInt64 { NIODeadline.now().uptimeNanoseconds / 1000 }

    func receive(_ bytes: [UInt8], via channel: SessionChannel, from address: PeerAddress) {
        carryOut(host.receive(bytes, via: channel, from: address, now: now))
    }

    func tick() { carryOut(host.tick(now: now)) }

    /// Sends what each session's port was sent since the last flush.
    func send(_ batches: [(SessionID, [MIDIMessage])]) {
        let now = self.now
        for (id, messages) in batches { carryOut(host.send(messages, to: id, now: now)) }
    }

    func invite(_ peer: PeerAddress) -> SessionID {
        let (id, effects) = host.invite(peer, now: now)
        carryOut(effects)
        return id
    }

    func end(_ id: SessionID) { carryOut(host.end(id, now: now)) }

    func stop() {
        carryOut(host.endAll(now: now))
        _ = control?.close()
        _ = data?.close()
    }

    private func carryOut(_ effects: [SessionEffect]) {
        for effect in effects {
            switch effect {
            case .send(let bytes, let address, let via):
                guard let channel = via == .control ? control : data,
                      let remote = try? SocketAddress(ipAddress: address.host, port: Int(address.port))
                else { continue }
                let envelope = AddressedEnvelope(remoteAddress: remote, data: channel.allocator.buffer(bytes: bytes))
                channel.writeAndFlush(envelope, promise: nil)
            case .sessionUp(let summary):
                ports?.post(.open(summary))
            case .sessionDown(let summary, let reason):
                ports?.post(.close(summary.id))
                events(.down(summary, reason: reason))
            case .received(let messages, let id):
                ports?.post(.deliver(id, messages))
            case .receivedLater(let messages, let id, let at):
                guard let ports, let loop = data?.eventLoop else { continue }
                loop.scheduleTask(deadline: .uptimeNanoseconds(at * 1000)) { ports.post(.deliver(id, messages)) }
            }
        }
    }
}
