import Control
import Glibc
import OSC
@testable import OSCSurface
import Testing

@Suite struct OSCServerTests {
    /// Sends `bytes` from a socket of its own to 127.0.0.1:`port` and returns the first reply.
    func exchange(_ bytes: [UInt8], port: Int) -> [UInt8]? {
        let descriptor = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(descriptor) }
        var address = Self.loopback(port: port, timeoutFor: descriptor, seconds: 3)
        _ = bytes.withUnsafeBytes { data in
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    sendto(descriptor, data.baseAddress, data.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var reply = [UInt8](repeating: 0, count: 2048)
        let count = recv(descriptor, &reply, reply.count, 0)
        return count > 0 ? Array(reply[..<count]) : nil
    }

    /// 127.0.0.1:`port`, after giving `descriptor` a receive timeout of `seconds`.
    static func loopback(port: Int, timeoutFor descriptor: Int32, seconds: Int) -> sockaddr_in {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Connects to 127.0.0.1:`port` over TCP, writes `bytes`, and returns what comes back
    /// until the server closes or a second passes quietly.
    func converse(_ bytes: [UInt8], port: Int) -> [UInt8] {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = Self.loopback(port: port, timeoutFor: descriptor, seconds: 1)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return [] }
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return received }
            received += chunk[..<count]
        }
    }

    /// The `/error` replies' reasons in `bytes`, read in `framing`.
    func errors(in bytes: [UInt8], _ framing: OSCStreamFraming) throws -> [OSCArgument] {
        var decoder = OSCStreamDecoder()
        decoder.append(bytes)
        var reasons: [OSCArgument] = []
        while let packet = try decoder.nextPacket() {
            guard case .message(let message) = try OSCPacket(decoding: packet), message.address == "/error" else { continue }
            reasons += message.arguments
        }
        #expect(decoder.framing == framing)
        return reasons
    }

    @Test func aTCPConnectionIsAnsweredInTheFramingItSpeaks() throws {
        let made = OSCServer(address: ListenAddress(port: 0), socket: ControlSocketPath(directory: "/nonexistent"), log: { _ in })
        let server = try #require(made)
        let bound = try server.start()
        defer { server.stop() }
        let unknown = OSCPacket.message(OSCMessage("/node/x/y", [.float(1)])).encoded()
        let reason = OSCArgument.string("no OSC address /node/x/y in this patch (fix: send one of the addresses docs/osc.md lists, e.g. /node/NODE/PARAMETER)")
        for framing in [OSCStreamFraming.sizePrefixed, .slip] {
            // Two packets in one write, then a frame that cannot be read: answered, then closed.
            let broken: [UInt8] = framing == .slip ? [0xDB, 0x41, 0xC0] : [0, 0, 0, 6]
            let reply = converse(framing.frame(unknown) + framing.frame(unknown) + broken, port: bound.port)
            let reasons = try errors(in: reply, framing)
            #expect(reasons.count == 3, "\(framing)")
            #expect(Array(reasons.prefix(2)) == [reason, reason], "\(framing)")
            #expect(reasons.last == .string((framing == .slip ? OSCError.badSLIPEscape(0x41) : .badFrameSize(6)).description))
        }
    }

    @Test func aPacketThatIsNotOSCIsAnsweredWithError() throws {
        let made = OSCServer(address: ListenAddress(port: 0), socket: ControlSocketPath(directory: "/nonexistent"), log: { _ in })
        let server = try #require(made)
        let bound = try server.start()
        defer { server.stop() }
        let reply = try #require(exchange([0, 1, 2, 3, 4], port: bound.port))
        let packet = try OSCPacket(decoding: reply)
        guard case .message(let message) = packet else { Issue.record("not a message: \(packet)"); return }
        #expect(message.address == "/error")
        let unknown = try #require(exchange(OSCPacket.message(OSCMessage("/node/x/y", [.float(1)])).encoded(), port: bound.port))
        guard case .message(let second) = try OSCPacket(decoding: unknown) else { Issue.record("not a message"); return }
        #expect(second.arguments == [.string("no OSC address /node/x/y in this patch (fix: send one of the addresses docs/osc.md lists, e.g. /node/NODE/PARAMETER)")])
    }

    @Test func aSenderCannotMakeTheServerHoldTimedMessagesWithoutBound() throws {
        let made = OSCServer(address: ListenAddress(port: 0), socket: ControlSocketPath(directory: "/nonexistent"), log: { _ in })
        let server = try #require(made)
        let bound = try server.start()
        defer { server.stop() }
        let inAnHour = OSCTimeTag(unixNanoseconds: Int64(time(nil) + 3_600) * 1_000_000_000)
        let messages = (0...OSCSession.maximumHeld).map { OSCPacket.message(OSCMessage("/node/x/y", [.int(Int32($0))])) }
        let reply = try #require(exchange(OSCPacket.bundle(OSCBundle(timeTag: inAnHour, messages)).encoded(), port: bound.port))
        guard case .message(let message) = try OSCPacket(decoding: reply) else { Issue.record("not a message"); return }
        #expect(message.arguments == [.string("\(OSCSession.maximumHeld) timed messages wait already; /node/x/y is not kept")])
    }
}
