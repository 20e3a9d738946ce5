import Hummingbird
import HummingbirdCore

/// Who may use the remote: a request must carry the token, as `?token=` in its URL (the
/// page and the WebSocket, as `midihub remote` prints them) or as `Authorization: Bearer`;
/// and a WebSocket opened by a browser must come from the page's own origin (its `Origin`
/// is `http://` or `https://` and the `Host` it asked for), so another site open in the
/// same browser cannot drive the hub. A client that sends no `Origin` is no browser and
/// needs only the token.
///
/// - Thread: any (a plain value).
struct RemoteAccess: Sendable {
    enum Verdict: Equatable {
        case allowed
        /// No token, or a wrong one: 401.
        case noToken
        /// A WebSocket from another site's page: 403.
        case foreignOrigin
    }

    let token: RemoteToken

    /// A request's verdict from its URI and the headers that matter.
    /// - Parameter webSocket: whether the request opens the WebSocket (`Origin` is checked).
    func check(_ uri: URI, origin: String?, host: String?, authorization: String?, webSocket: Bool) -> Verdict {
        guard presentsToken(uri, authorization: authorization) else { return .noToken }
        if webSocket, let origin, !Self.isOwn(origin: origin, host: host) { return .foreignOrigin }
        return .allowed
    }

    private func presentsToken(_ uri: URI, authorization: String?) -> Bool {
        if let query = uri.queryParameters["token"], token.matches(query) { return true }
        guard let authorization else { return false }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        return parts.count == 2 && parts[0].lowercased() == "bearer" && token.matches(parts[1])
    }

    private static func isOwn(origin: String, host: String?) -> Bool {
        guard let host = host?.lowercased() else { return false }
        return [("http://" + host), ("https://" + host)].contains(origin.lowercased())
    }
}
