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
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
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
