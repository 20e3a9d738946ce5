import Foundation
import Testing

@testable import Control

@Suite("Subscriptions and event fan-out")
struct SubscriptionTests {
    static let events: [ControlEvent] = [
        .portAppeared(FakeDaemon.keyboard),
        .connected(ConnectionSummary(source: "20:0", destination: "node:lead")),
        .parameterChanged(node: "lead", parameter: "gain", value: -3),
        .nodeGone(node: "fluid", reason: .deviceUnplugged),
        .disconnected(ConnectionSummary(source: "20:0", destination: "node:lead")),
        .portLeft(FakeDaemon.keyboard),
        .log(level: .warning, message: "no JACK server; JACK ports are absent"),
        .mappingLearned(MappingSummary(control: "cc14 16", channel: 1, mode: "absolute", pickup: "jump", pass: false,
                                       targets: [MappingTargetSummary(node: "lead", parameter: "gain", low: -60, high: 12,
                                                                      curve: "linear", invert: false, value: 0)])),
        .learnEnded(reason: .timedOut),
        .sceneChanged(scene: "chorus"),
        .triggerFired(trigger: "panic"),
        .nodeOverloaded(node: "fluid", port: "128:0", count: 312),
        .sessionUp(NetworkSessionChange(peer: "laptop", address: "192.168.1.10:5004", port: "129:0")),
        .sessionDown(NetworkSessionChange(peer: "laptop", address: "192.168.1.10:5004", reason: "the peer ended the session")),
        .transportChanged(TransportStatus(state: "playing", song: "song.mid", position: "3:2", seconds: 4.5, duration: 12,
                                          tempo: 120, tempoOverride: false,
                                          loop: TransportStatus.LoopRegion(from: "2:1", to: "4:1"))),
        .started(version: "1.2.3", pid: 4242),
        .stopping(reason: "SIGTERM"),
    ]

    @Test func everySubscriberGetsEveryEventInOrder() throws {
        let socket = try TestSocket()
        let first = try socket.client(), second = try socket.client()
        let firstStream = try first.subscribe(), secondStream = try second.subscribe()
        for event in Self.events { socket.server?.publish(event) }
        for stream in [firstStream, secondStream] {
            let received = try Self.events.map { _ in try stream.next(timeout: 10) }
            #expect(received == Self.events)
        }
    }

    @Test func filterLimitsTheKinds() throws {
        let socket = try TestSocket()
        let stream = try socket.client().subscribe(SubscriptionFilter(events: [.nodeGone, .log]))
        for event in Self.events { socket.server?.publish(event) }
        #expect(try stream.next(timeout: 10) == .nodeGone(node: "fluid", reason: .deviceUnplugged))
        #expect(try stream.next(timeout: 10) == .log(level: .warning, message: "no JACK server; JACK ports are absent"))
    }

    @Test func requestsStillWorkOnASubscribedConnection() throws {
        let socket = try TestSocket()
        let client = try socket.client()
        let stream = try client.subscribe()
        socket.server?.publish(.nodeGone(node: "lead", reason: .removed))
        #expect(try stream.next(timeout: 10) == .nodeGone(node: "lead", reason: .removed))
        socket.server?.publish(.log(level: .info, message: "between"))
        #expect(try client.nodes() == [FakeDaemon.synth])
        #expect(try stream.next(timeout: 10) == .log(level: .info, message: "between"))
    }

    @Test func nonSubscribersGetNoEvents() throws {
        let socket = try TestSocket()
        let raw = try socket.raw()
        _ = try raw.exchange(#"{"id":1,"request":"hello","params":{"protocolVersion":1}}"#)
        for event in Self.events { socket.server?.publish(event) }
        let next = try #require(try raw.exchange(#"{"id":2,"request":"rules.list"}"#))
        #expect(next["id"] as? Int == 2 && next["event"] == nil)
    }

    @Test func aSlowSubscriberMissesEventsButIsToldHowMany() throws {
        let socket = try TestSocket()
        let slow = try socket.client()
        let stream = try slow.subscribe(SubscriptionFilter(events: [.log]))
        let message = String(repeating: "m", count: 1000)
        let published = 5000
        for index in 0..<published { socket.server?.publish(.log(level: .debug, message: "\(index) \(message)")) }
        // The server takes every published event before it answers a later request.
        _ = try socket.client().ports()

        // Every event arrives in order or is counted by the `dropped` notice before the next delivered one.
        var next = 0
        var dropped = 0
        while next < published {
            switch try stream.next(timeout: 10) {
            case .log(_, let text)?:
                let index = Int(text.prefix { $0 != " " })
                #expect(index == next, "event \(String(describing: index)) arrived where \(next) was due")
                next += 1
            case .dropped(let count)?:
                dropped += count
                next += count
            case let other:
                Issue.record("unexpected \(String(describing: other))")
                return
            }
        }
        #expect(next == published)
        #expect(dropped > 0)
        socket.server?.publish(.log(level: .info, message: "caught up"))
        #expect(try stream.next(timeout: 10) == .log(level: .info, message: "caught up"))
    }

    /// The daemon takes its socket first thing and serves only once it has started: a client
    /// that subscribes meanwhile waits, unanswered, then gets its answer and `started`.
    @Test func aSubscribeSentWhileTheDaemonStartsIsAnsweredOnceItServesThenStartedFollows() throws {
        let socket = try TestSocket(holdingRequests: true)
        let raw = try socket.raw()
        try raw.send(#"{"id":1,"request":"subscribe","params":{}}"#)
        #expect(try UnixSocket.waitReadable(raw.fd, milliseconds: 300) == false, "answered before the daemon served")
        socket.server?.open(announcing: .started(version: "1.2.3", pid: 4242))
        let answer = try raw.readObject()
        #expect(answer?["id"] as? Int == 1)
        #expect(answer?["ok"] as? Bool == true)
        let event = try raw.readObject()
        #expect(event?["event"] as? String == "started")
        #expect(event?["version"] as? String == "1.2.3")
        #expect(event?["pid"] as? Int == 4242)
    }

    /// What the daemon publishes as it stops (`stopping` last) reaches the subscribers
    /// before their connection closes, though the loop takes it in one batch with the stop
    /// (it is held in a handler while both are posted).
    @Test func theEventsPublishedJustBeforeTheStopReachTheSubscribers() throws {
        let socket = try TestSocket()
        var stream = try socket.client().subscribe()
        let holder = try socket.raw()
        try holder.send(#"{"id":1,"request":"triggers.fire","params":{"trigger":"\#(FakeDaemon.holdingTrigger)"}}"#)
        socket.daemon.loopHeld.wait()
        for step in 0..<50 { socket.server?.publish(.log(level: .info, message: "stopping step \(step)")) }
        socket.server?.publish(.stopping(reason: "SIGTERM"))
        let stopped = DispatchSemaphore(value: 0)
        Thread { [server = socket.server] in server?.stopWithDeadline(); stopped.signal() }.start()
        usleep(100_000)  // the stop is posted (stop() posts it first thing, then waits for the loop)
        socket.daemon.loopReleased.signal()
        stopped.wait()
        var received: [ControlEvent] = []
        while let event = try stream.next(timeout: 10) { received.append(event) }
        #expect(received.count == 51)
        #expect(received.last == .stopping(reason: "SIGTERM"))
    }

    @Test func subscriptionEndsWhenTheDaemonStops() throws {
        let socket = try TestSocket()
        var stream = try socket.client().subscribe()
        socket.server?.stopWithDeadline()
        // With a deadline first (a daemon that never closes the connection fails here
        // instead of hanging); then the sequence, which waits forever, sees the end too.
        #expect(try stream.next(timeout: 10) == nil)
        #expect(stream.next() == nil)
        #expect(stream.error == nil)
    }
}
