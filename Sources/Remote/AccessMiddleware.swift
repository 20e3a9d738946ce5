import HTTPTypes
import Hummingbird

/// Refuses every HTTP request that `RemoteAccess` does not allow: 401 without the token
/// (the body says how to get the URL), 403 for a WebSocket request from another site.
///
/// - Thread: the server's event loops (async).
struct AccessMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let access: RemoteAccess

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let verdict = access.check(
            request.uri, origin: request.headers[.origin], host: request.head.authority,
            authorization: request.headers[.authorization], webSocket: request.uri.path == RemoteServer.webSocketPath)
        switch verdict {
        case .allowed:
            return try await next(request, context)
        case .noToken, .foreignOrigin:
            let refusal = Refusal(verdict)
            return Self.refusal(HTTPResponse.Status(code: refusal.status), refusal.text, headers: [.wwwAuthenticate: "Bearer"])
        }
    }

    static func refusal(_ status: HTTPResponse.Status, _ text: String, headers: HTTPFields = [:]) -> Response {
        var headers = headers
        headers[.contentType] = "text/plain; charset=utf-8"
        let body = ResponseBody(byteBuffer: ByteBuffer(string: "midihub: \(text)\n"))
        return Response(status: status, headers: headers, body: body)
    }
}

/// What a refused request is told: its status and one line.
///
/// - Thread: any (a plain value).
struct Refusal {
    let status: Int
    let text: String

    init(_ verdict: RemoteAccess.Verdict) {
        switch verdict {
        case .foreignOrigin:
            (status, text) = (403, "a page of another site may not open the remote's WebSocket")
        case .noToken, .allowed:
            (status, text) = (401, "this needs the remote's token: run 'midihub remote' on the hub's machine for the URL to open")
        }
    }
}
