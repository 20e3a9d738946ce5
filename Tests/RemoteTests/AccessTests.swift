import Control
import Foundation
import Glibc
import Remote
import Testing

extension RemoteSuite {
    /// Every request needs the token; the WebSocket also the page's own origin.
    @Suite struct AccessTests {
        @Test func thePageNeedsTheToken() async throws {
            let fixture = try RemoteFixture()
            for path in ["/", "/app.js", "/style.css", "/nowhere"] {
                #expect(try await RawHTTP.get(path, at: fixture.address).status == 401, "\(path) without a token")
                #expect(try await RawHTTP.get(path + "?token=" + RemoteToken.random().text, at: fixture.address).status == 401,
                        "\(path) with another token")
            }
            let page = try await RawHTTP.get("/?token=\(fixture.token.text)", at: fixture.address)
            #expect(page.status == 200)
            #expect(page.head.contains("no-store") && page.head.lowercased().contains("referrer-policy: no-referrer"))
            #expect(try await RawHTTP.get("/style.css", at: fixture.address, headers: ["Authorization": "Bearer \(fixture.token.text)"]).status == 200)
            #expect(try await RawHTTP.get("/nowhere?token=\(fixture.token.text)", at: fixture.address).status == 404)
        }

        @Test func theWebSocketNeedsTheTokenAndThePagesOrigin() async throws {
            let fixture = try RemoteFixture()
            let own = "http://\(fixture.address)"
            let withToken = "/ws?token=\(fixture.token.text)"
            #expect(try await RawHTTP.get("/ws", at: fixture.address, headers: RawHTTP.webSocketHeaders(origin: own)).status == 401)
            #expect(try await RawHTTP.get("/ws?token=" + RemoteToken.random().text, at: fixture.address,
                                    headers: RawHTTP.webSocketHeaders(origin: own)).status == 401)
            #expect(try await RawHTTP.get(withToken, at: fixture.address,
                                    headers: RawHTTP.webSocketHeaders(origin: "http://evil.example")).status == 403)
            #expect(try await RawHTTP.get(withToken, at: fixture.address,
                                    headers: RawHTTP.webSocketHeaders(origin: "http://127.0.0.1:1")).status == 403)
            #expect(try await RawHTTP.get(withToken, at: fixture.address, headers: RawHTTP.webSocketHeaders(origin: own)).status == 101)
            #expect(try await RawHTTP.get(withToken, at: fixture.address, headers: RawHTTP.webSocketHeaders(origin: nil)).status == 101)
            #expect(try await RawHTTP.get(withToken, at: fixture.address).status == 426, "a plain GET of /ws")
        }

        @Test func theTokenIsMadeOnceAndKeptPrivate() throws {
            var template = Array("/tmp/mhtoken-XXXXXX".utf8CString)
            let folder = String(cString: mkdtemp(&template)!)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = RemoteToken.path(besideState: folder + "/state/state.json")
            #expect(path == folder + "/state/remote-token")
            let made = try RemoteToken.loadOrCreate(at: path)
            #expect(try RemoteToken.loadOrCreate(at: path) == made)
            var status = stat()
            #expect(stat(path, &status) == 0 && status.st_mode & 0o777 == 0o600)
            #expect(made != RemoteToken.random() && made.text.count == 64)
            #expect(made.matches(made.text) && !made.matches(String(made.text.dropLast()) + "x") && !made.matches(""))
        }

        @Test func addressesParseAsServeTakesThem() {
            #expect(ListenAddress(parsing: "8080") == ListenAddress(host: "127.0.0.1", port: 8080))
            #expect(ListenAddress(parsing: "0.0.0.0:8080") == ListenAddress(host: "0.0.0.0", port: 8080))
            #expect(ListenAddress(parsing: "[::1]:80") == ListenAddress(host: "::1", port: 80))
            #expect(ListenAddress(parsing: "[::1]:80")?.description == "[::1]:80")
            for bad in ["", "port", ":80", "1.2.3.4:", "65536", "1.2.3.4:-1"] { #expect(ListenAddress(parsing: bad) == nil, "\(bad)") }
            #expect(ListenAddress(port: 1).isLoopback && !ListenAddress(host: "0.0.0.0", port: 1).isLoopback)
        }
    }
}
