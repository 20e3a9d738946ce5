/// A JACK MIDI port's name: JACK's full name (`client:port`) and its spelling in
/// midihub's port namespace (`jack:client:port`).
///
/// - Thread: any (a plain value).
public struct JackPortName: Hashable, Sendable, CustomStringConvertible {
    /// The prefix that marks a JACK port among midihub's port names.
    public static let namespacePrefix = "jack:"

    /// The name as JACK spells it, `client:port`.
    public let fullName: String

    /// Wraps a name as JACK spells it (`client:port`).
    /// - Thread: any.
    public init(jackName: String) {
        fullName = jackName
    }

    /// Parses a name in midihub's namespace, `jack:client:port`.
    /// - Throws: `JackMIDIError.notAJackPortName` without the `jack:` prefix, or with
    ///   an empty client or port part.
    /// - Thread: any.
    public init(parsing hubName: String) throws(JackMIDIError) {
        guard hubName.hasPrefix(Self.namespacePrefix) else { throw .notAJackPortName(hubName) }
        let jackName = String(hubName.dropFirst(Self.namespacePrefix.count))
        guard let colon = jackName.firstIndex(of: ":"), colon != jackName.startIndex,
              jackName.index(after: colon) != jackName.endIndex
        else { throw .notAJackPortName(hubName) }
        fullName = jackName
    }

    /// True when `name` is in the JACK namespace (starts with `jack:`).
    /// - Thread: any.
    public static func isJackName(_ name: String) -> Bool {
        name.hasPrefix(namespacePrefix)
    }

    /// The name in midihub's namespace, `jack:client:port`.
    public var hubName: String { Self.namespacePrefix + fullName }

    /// The JACK client part (before the first colon).
    public var client: Substring { fullName.prefix { $0 != ":" } }

    /// The port's short name (after the first colon).
    public var port: Substring {
        guard let colon = fullName.firstIndex(of: ":") else { return fullName[...] }
        return fullName[fullName.index(after: colon)...]
    }

    public var description: String { hubName }
}

/// Which way MIDI flows through a JACK port, seen from the port's owner.
/// - Thread: any (a plain value).
public enum JackPortDirection: Sendable, CustomStringConvertible {
    /// A JACK output port: it produces MIDI, a `JackMIDIInput` can read from it.
    case source
    /// A JACK input port: it consumes MIDI, a `JackMIDIOutput` can write to it.
    case destination

    public var description: String {
        switch self {
        case .source: return "source"
        case .destination: return "destination"
        }
    }
}

/// The JACK MIDI ports present at one moment, by direction.
///
/// - Thread: any (a plain value).
public struct JackPortList: Equatable, Sendable {
    /// Ports that produce MIDI (JACK output ports).
    public var sources: [JackPortName]
    /// Ports that consume MIDI (JACK input ports).
    public var destinations: [JackPortName]

    /// - Thread: any.
    public init(sources: [JackPortName], destinations: [JackPortName]) {
        self.sources = sources
        self.destinations = destinations
    }

    /// The ports of one direction.
    /// - Thread: any.
    public func ports(_ direction: JackPortDirection) -> [JackPortName] {
        direction == .source ? sources : destinations
    }
}
