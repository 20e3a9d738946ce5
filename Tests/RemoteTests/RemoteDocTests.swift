import Foundation
import Remote
import Testing
import TestSupport

extension RemoteSuite {
    /// docs/remote.md's URL forms are the server's: each, with the fixture's address and token,
    /// opens the page or the WebSocket; without the token, none does.
    @Suite struct RemoteDocTests {
        @Test func theDocsURLsAreTheServers() async throws {
            let fixture = try RemoteFixture()
            let blocks = try Repository.blocks(testedBy: "Tests/RemoteTests/RemoteDocTests.swift")
            let urls = blocks.flatMap(\.lines).filter { !$0.isEmpty }
            #expect(urls.count == 4)
            for form in urls {
                let url = form.replacingOccurrences(of: "HOST:PORT", with: fixture.address.description)
                    .replacingOccurrences(of: "TOKEN", with: fixture.token.text)
                let target = try #require(url.range(of: fixture.address.description).map { String(url[$0.upperBound...]) })
                let webSocket = url.hasPrefix("ws://")
                let headers = webSocket ? RawHTTP.webSocketHeaders(origin: "http://\(fixture.address)") : [:]
                #expect(try await RawHTTP.get(target, at: fixture.address, headers: headers).status == (webSocket ? 101 : 200), "\(form)")
                let bare = String(target.prefix { $0 != "?" })
                #expect(try await RawHTTP.get(bare, at: fixture.address, headers: headers).status == 401, "\(form) without the token")
            }
            #expect(RemoteURL.url(fixture.address, token: fixture.token) == "http://\(fixture.address)/?token=\(fixture.token.text)")
        }
    }
}
