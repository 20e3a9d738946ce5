import Control
import Foundation
@testable import Remote
import Testing

extension RemoteSuite {
    /// The bridge's limits: one connection's mistakes and slowness cost the others nothing.
    @Suite struct BridgeTests {
        static let hello = #"{"id":1,"request":"hello","params":{"protocolVersion":1}}"#

        @Test func aFrameOverTheLimitClosesOnlyItsWebSocket() async throws {
            let fixture = try RemoteFixture()
            let (first, second) = (try await fixture.webSocket(), try await fixture.webSocket())
            first.send(Self.hello)
            #expect(try await first.next()?.contains(#""ok":true"#) == true)
            first.send(String(repeating: " ", count: ControlProtocol.maxRequestLength - Self.hello.utf8.count) + Self.hello)
            #expect(try await first.next()?.contains(#""ok":true"#) == true, "a request of 1 MiB exactly is answered")
            first.send(String(repeating: " ", count: ControlProtocol.maxRequestLength) + Self.hello)
            #expect(try await first.next() == nil)
            #expect(first.closeCode == 1009, "message too big")
            second.send(Self.hello)
            #expect(try await second.next()?.contains(#""ok":true"#) == true)
        }
    }
}

extension RemoteSuite {
    /// A browser that stops reading: its bridge stops reading the daemon, so the daemon drops
    /// events for it (told with `dropped` once it reads again) while the bridge's memory stays
    /// within its bound; a subscriber on the socket meanwhile gets every event.
    @Suite struct SlowBrowserTests {
        @Test func aSlowBrowserLosesEventsNotMemory() async throws {
            let fixture = try RemoteFixture()
            let browser = try await fixture.webSocket()
            browser.send(#"{"id":1,"request":"subscribe","params":{"events":["log"]}}"#)
            #expect(try await browser.next()?.contains(#""ok":true"#) == true)
            let reader = try LineConnection(fixture.socket)
            reader.send(#"{"id":1,"request":"subscribe","params":{"events":["log","dropped"]}}"#)
            #expect(try await reader.next()?.contains(#""ok":true"#) == true)

            // 32 MiB of events, far more than the socket buffers, the daemon's 1 MiB queue and the
            // bridge hold; each batch published once the reader has the one before (so the server
            // fans every event out: none is lost on the way in).
            let event = ControlEvent.log(level: .info, message: String(repeating: "x", count: 4000))
            let line = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
            for _ in 0..<128 {
                for _ in 0..<64 { fixture.control.publish(event) }
                for _ in 0..<64 {
                    let got = try #require(try await reader.next())
                    #expect(!got.contains(#""dropped""#), "the socket's subscriber lost events")
                }
            }
            #expect(fixture.remote.meter.peakBufferedBytes <= ControlBridge.maxBufferedBytes + line.utf8.count,
                    "the bridge held \(fixture.remote.meter.peakBufferedBytes) bytes")

            var frames = 0
            var dropped: String?
            while dropped == nil, let frame = try await browser.next() {
                frames += 1
                if frame.contains(#""event":"dropped""#) { dropped = frame }
            }
            #expect(dropped != nil, "no dropped event in \(frames) frames")
            #expect(frames < 128 * 64, "the browser got \(frames) events")
        }
    }
}
