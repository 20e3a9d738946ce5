import HTTPTypes
import Hummingbird

/// The page, served from the binary (Sources/Remote/Page, embedded at build time): `/`, the
/// script and the style sheet. Never cached (a new midihub may serve a new page), and no
/// `Referer` leaves it: its URL carries the token.
///
/// - Thread: any (constants).
enum RemotePage {
    struct File: Sendable {
        let path: String
        let contentType: String
        let bytes: [UInt8]
    }

    static let files = [
        File(path: "/", contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        File(path: "/app.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
        File(path: "/style.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
    ]

    /// Adds a route for each file.
    static func addRoutes(to router: Router<BasicRequestContext>) {
        for file in files {
            let headers: HTTPFields = [
                .contentType: file.contentType, .cacheControl: "no-store", HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ]
            router.get(RouterPath(file.path)) { _, _ in
                Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: file.bytes)))
            }
        }
    }
}
