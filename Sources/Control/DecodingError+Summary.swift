extension DecodingError {
    /// One line naming the field and what is wrong with it, e.g.
    /// `missing field 'params.destination'` or `field 'params.value' should be a number`.
    var summary: String {
        switch self {
        case .keyNotFound(let key, let context):
            return "missing field '\(Self.path(context.codingPath + [key]))'"
        case .typeMismatch(let type, let context):
            return "field '\(Self.path(context.codingPath))' should be \(Self.name(of: type))"
        case .valueNotFound(let type, let context):
            return "field '\(Self.path(context.codingPath))' is null, should be \(Self.name(of: type))"
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case .dataCorrupted(let context):
            return "field '\(Self.path(context.codingPath))' has a bad value: \(context.debugDescription)"
        @unknown default:
            return "\(self)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        var path = ""
        for key in keys {
            if let index = key.intValue {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return path.isEmpty ? "(top level)" : path
    }

    private static func name(of type: Any.Type) -> String {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): "a string"
        case ObjectIdentifier(Int.self), ObjectIdentifier(Double.self): "a number"
        case ObjectIdentifier(Bool.self): "true or false"
        case ObjectIdentifier([Any].self): "an array"
        case ObjectIdentifier([String: Any].self): "an object"
        default: "\(type)"
        }
    }
}
