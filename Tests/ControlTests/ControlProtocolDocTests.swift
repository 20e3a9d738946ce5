import Foundation
import Synchronization
import Testing
import TestSupport

@testable import Control

/// The "From Swift" sketches of docs/control-protocol.md, line for line (DocsTests'
/// SwiftSnippetTests checks that), run against a real server on a private socket with a
/// `FakeDaemon` as the handler `hub`: the client lists the handler's nodes, and the
/// subscriber gets the port events published while it listens and no others.
@Suite struct ControlProtocolDocTests {
    @Test func fromSwiftSketchesRun() throws {
        let socket = try TestSocket(start: false)
        let (path, hub) = (socket.path, socket.daemon)
        let (nodes, events) = try onThread(message: "the sketches of docs/control-protocol.md never ended") {
            try Self.runSketches(path: path, hub: hub)
        }
        withExtendedLifetime(socket) {}  // its folder is removed when it goes
        #expect(nodes == [FakeDaemon.synth.id])
        #expect(!events.isEmpty && events.allSatisfy { $0 == .portAppeared(FakeDaemon.keyboard) },
                "the subscriber got \(events)")
    }

    /// Both sketches; returns the node ids the client listed and the events the subscriber got.
    static func runSketches(path: ControlSocketPath, hub: FakeDaemon) throws -> ([String], [ControlEvent]) {
        let listed = Mutex<[String]>([])
        let received = Mutex<[ControlEvent]>([])

        let server = ControlServer(path: path, handler: hub, version: MidihubVersion.current)
        try server.start()                                          // ControlServerError.alreadyRunning, …

        do {
            let client = try ControlClient(path: path)   // .daemonNotRunning: work alone
            try client.hello(client: "midihub nodes")   // .versionMismatch: refuse
            let nodes = try client.nodes()
            listed.withLock { $0 = nodes.map(\.id) }
        } catch {
            guard error.isDaemonNotRunning else { throw error }
            // no daemon: do it directly
        }

        let subscriber = Thread {
            do {
                for event in try ControlClient(path: path).subscribe(SubscriptionFilter(events: [.portAppeared, .portLeft])) {
                    print(event)
                    received.withLock { $0.append(event) }
                }
            } catch {
                Issue.record("the subscriber failed: \(error)")
            }
        }
        subscriber.start()
        // Port events until the subscriber has one: it may not have subscribed yet.
        try waitUntil(pollMicroseconds: 50_000, {
            server.publish(.portAppeared(FakeDaemon.keyboard))
            return received.withLock { !$0.isEmpty }
        }, message: "the subscriber got no port-appeared event")
        server.publish(.nodeGone(node: "fluid", reason: .deviceUnplugged))   // any thread but render
        server.stop()
        try waitUntil({ subscriber.isFinished }, message: "the subscription did not end when the server stopped")
        return (listed.withLock { $0 }, received.withLock { $0 })
    }
}
