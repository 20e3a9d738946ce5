import Foundation
import Glibc
import Testing
import TestSupport

@testable import Control

/// What one client may cost the others (`ServerLimits`): a client that sends and never
/// reads holds a bounded output and is dropped, and at the cap the quietest client makes
/// room for a new one (the CLI is never locked out by idle connections).
@Suite(.serialized) struct ServerLimitsTests {
    /// Writes request lines without reading until the server stops taking them (its output
    /// for this client is full, so it reads no more) for half a second.
    private func floodUntilRefused(_ connection: RawConnection) throws {
        let request = Array(#"{"id":1,"request":"ports.list"}"#.utf8) + [10]
        let batch = Array([[UInt8]](repeating: request, count: 256).joined())
        var refusedSince: ContinuousClock.Instant?
        try waitUntil({
            let count = UnixSocket.send(connection.fd, batch[...])
            if count > 0 { refusedSince = nil; return false }
            let since = refusedSince ?? .now
            refusedSince = since
            return ContinuousClock.now - since > .milliseconds(500)
        }, message: "the server never stopped reading a client that does not read")
    }

    @Test func aClientThatNeverReadsHoldsABoundedOutputAndIsDroppedWhileOthersAreServed() throws {
        let socket = try TestSocket(limits: ServerLimits(stalledSeconds: 1))
        let flooder = try socket.raw()
        try floodUntilRefused(flooder)
        #expect(try socket.client().ports().count == FakeDaemon().ports().count, "another client is served meanwhile")
        try waitUntil({ !socket.reports.all.isEmpty }, message: "no report of the stalled client")
        let line = try #require(socket.reports.all.first)
        let match = try #require(line.firstMatch(of: /dropped a client that stopped reading \((\d+) bytes waiting for 1 s\)/))
        let waiting = try #require(Int(match.1))
        // At most the queue's limit and the one answer that crossed it.
        #expect(waiting <= ControlProtocol.maxQueuedEventBytes + 4096, "\(waiting) bytes queued for a client that never reads")
        // The server closed it: reading drains what the kernel holds, then the end of the stream.
        while try flooder.readLine() != nil {}
    }

    @Test func atTheCapTheQuietestClientMakesRoomForTheCommandLine() throws {
        let socket = try TestSocket(limits: ServerLimits(maxClients: 3, quietSeconds: 0.2))
        let idle = try (0..<3).map { _ in try socket.raw() }
        _ = try idle[1].exchange(#"{"id":1,"request":"hello","params":{"protocolVersion":1}}"#)
        usleep(300_000)
        #expect(try socket.client().ports().count == FakeDaemon().ports().count, "a new client at the cap is served")
        #expect(socket.reports.all.contains { $0.contains("to make room for a new one (3 clients at most)") })
        #expect(try idle[0].readLine() == nil, "the quietest client (connected first, sent nothing) was closed")
    }

    @Test func atTheCapWithNoQuietClientANewOneIsClosedAtOnceWithAReport() throws {
        let socket = try TestSocket(limits: ServerLimits(maxClients: 2, quietSeconds: 60))
        let busy = try (0..<2).map { _ in try socket.raw() }
        #expect(throws: ControlClientError.self) { try socket.client().ports() }
        #expect(socket.reports.all.contains { $0.hasPrefix("control socket: refused a client: 2 clients connected, none quiet for 60 s") })
        for connection in busy {
            #expect(try connection.exchange(#"{"id":1,"request":"hello","params":{"protocolVersion":1}}"#)?["ok"] as? Bool == true,
                    "the clients connected before are still served")
        }
    }
}

/// A request that reads a file the client named runs off the server's thread: a stalled
/// disk holds up that client's answers, in order, and no other client.
@Suite struct FileRequestTests {
    @Test func aPatchLoadFromAStalledDiskHoldsUpOnlyItsOwnClient() throws {
        let socket = try TestSocket()
        let loader = try socket.raw()
        try loader.send(#"{"id":1,"request":"patch.load","params":{"path":"\#(FakeDaemon.slowPatchPath)"}}"#)
        try loader.send(#"{"id":2,"request":"ports.list"}"#)
        #expect(try socket.client().ports().count == 2, "another client is served meanwhile")
        #expect(try !UnixSocket.waitReadable(loader.fd, milliseconds: 200), "an answer before the patch was read")
        socket.daemon.slowFile.signal()
        #expect(try loader.readObject()?["id"] as? Int == 1, "the patch's answer first")
        #expect(try loader.readObject()?["id"] as? Int == 2, "then the request sent after it")
        #expect(socket.daemon.state.withLock { $0.loadedPatches.map(\.path) } == [FakeDaemon.slowPatchPath])
    }
}
