/// The LV2 host features midihub gives a plugin (docs/plugins.md#what-midihub-provides):
/// a plugin that requires another is refused, with one line naming it.
/// - Thread: any (constants).
public enum HostFeatures {
    /// The features, by URI.
    public static let provided: Set<String> = [
        "http://lv2plug.in/ns/ext/urid#map",
        "http://lv2plug.in/ns/ext/urid#unmap",
        "http://lv2plug.in/ns/ext/options#options",
        "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength",
        // Offered to the plugins that require them: such a plugin always runs the engine's
        // whole block, which is a power of two unless the sound card's period is not.
        "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength",
        "http://lv2plug.in/ns/ext/buf-size#powerOf2BlockLength",
        "http://lv2plug.in/ns/ext/log#log",
        "http://lv2plug.in/ns/ext/worker#schedule",
        "http://lv2plug.in/ns/ext/state#loadDefaultState",
        "http://lv2plug.in/ns/ext/state#mapPath",
        "http://lv2plug.in/ns/ext/state#makePath",
        "http://lv2plug.in/ns/ext/state#freePath",
        // Properties of the host more than services: midihub runs plugins live, from a
        // realtime thread, with separate input and output buffers.
        "http://lv2plug.in/ns/lv2core#isLive",
        "http://lv2plug.in/ns/lv2core#hardRTCapable",
        "http://lv2plug.in/ns/lv2core#inPlaceBroken",
    ]

    /// Of `required` (URIs), those midihub does not provide, in their order.
    public static func missing(from required: [String]) -> [String] {
        required.filter { !provided.contains($0) }
    }
}
