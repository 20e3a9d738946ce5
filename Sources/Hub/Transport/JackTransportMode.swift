/// How the hub's transport goes with JACK's, while the hub plays into JACK (a patch's
/// `transport:`, docs/jack.md#jack-transport).
///
/// - Thread: any (a plain value).
public enum JackTransportMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// JACK's transport starts, stops and locates the hub's song.
    case follow
    /// The hub's transport starts, stops and locates JACK's, and the hub is JACK's timebase
    /// master: its tempo, bars and beats are what JACK's clients read.
    case lead
}
