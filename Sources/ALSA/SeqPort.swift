internal import CALSA

/// A port this program created on its own `SeqClient`.
///
/// - Thread: any (a plain value; use it with the client that made it).
public struct SeqPort: Hashable, Sendable {
    /// The full address (own client id, port number).
    public var address: SeqAddress
    public var name: String

    /// `SND_SEQ_PORT_CAP_*`: what others may do with a port.
    public struct Capabilities: OptionSet, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let read = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_READ))
        public static let write = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_WRITE))
        public static let subscribeRead = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_SUBS_READ))
        public static let subscribeWrite = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_SUBS_WRITE))
        public static let duplex = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_DUPLEX))
        public static let noExport = Capabilities(rawValue: UInt32(SND_SEQ_PORT_CAP_NO_EXPORT))

        /// A port others can subscribe to, to receive what this program sends.
        public static let source: Capabilities = [.read, .subscribeRead]
        /// A port others can send to and connect to.
        public static let destination: Capabilities = [.write, .subscribeWrite]
    }

    /// `SND_SEQ_PORT_TYPE_*`: what kind of thing a port is.
    public struct Types: OptionSet, Hashable, Sendable {
        public var rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        public static let midiGeneric = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_MIDI_GENERIC))
        public static let hardware = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_HARDWARE))
        public static let software = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_SOFTWARE))
        public static let synthesizer = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_SYNTHESIZER))
        public static let port = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_PORT))
        public static let application = Types(rawValue: UInt32(SND_SEQ_PORT_TYPE_APPLICATION))

        /// The usual type of a program's MIDI port.
        public static let midiApplication: Types = [.midiGeneric, .application]
    }
}
