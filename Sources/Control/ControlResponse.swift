/// A response line: `{"id":1,"ok":true,"result":…}` or
/// `{"id":1,"ok":false,"error":{"code":"unknown-node","message":"…"}}`.
/// `id` is the request's id, `null` when the request had none or could not be read.
///
/// - Thread: any (a plain value).
public struct ControlResponse: Hashable, Sendable {
    public var id: RequestID?
    public var outcome: Result<ControlResult, ControlError>

    public init(id: RequestID?, outcome: Result<ControlResult, ControlError>) {
        self.id = id
        self.outcome = outcome
    }
}

extension ControlResponse: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, ok, result, error
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        switch outcome {
        case .success(let result):
            try container.encode(true, forKey: .ok)
            try container.encode(result, forKey: .result)
        case .failure(let error):
            try container.encode(false, forKey: .ok)
            try container.encode(error, forKey: .error)
        }
    }
}

/// The parts of a response line every response has, read before the result,
/// whose shape depends on the request.
struct ResponseHeader: Decodable {
    var id: RequestID?
    var ok: Bool
    var error: ControlError?
}

/// A line from the server is a response when it has `ok`, an event when it has `event`.
struct LineShape: Decodable {
    var ok: Bool?
    var event: String?
}
