/// Which built-in MIDI processor a graph node runs, with its structural settings (parameters are
/// set separately, by name). Codable for state files; patches spell it as in docs/patch-format.md.
///
/// - Thread: any (a plain value).
public enum ProcessorConfig: Hashable, Codable, Sendable {
    case transpose
    case channelMap
    case keyZones([KeyZone])
    case velocityCurve
    case controllerMap([ControllerMap.Route])
    case chord(intervals: [Int])
    case arpeggiator

    /// The name used in patch files.
    public var typeName: String {
        switch self {
        case .transpose: "transpose"
        case .channelMap: "channels"
        case .keyZones: "zones"
        case .velocityCurve: "velocity"
        case .controllerMap: "controllers"
        case .chord: "chord"
        case .arpeggiator: "arpeggiator"
        }
    }

    /// All patch type names, for error messages.
    public static let typeNames = ["transpose", "channels", "zones", "velocity", "controllers", "chord", "arpeggiator"]

    /// Each type, by its patch type name, as `nodes.add` makes it: empty zones, maps and chords.
    public static let byTypeName: [String: ProcessorConfig] = [
        "transpose": .transpose, "channels": .channelMap, "zones": .keyZones([]), "velocity": .velocityCurve,
        "controllers": .controllerMap([]), "chord": .chord(intervals: []), "arpeggiator": .arpeggiator,
    ]

    /// A fresh processor with default parameter values.
    /// - Thread: control (allocates).
    public func makeProcessor() -> any MIDIProcessor {
        switch self {
        case .transpose: Transpose()
        case .channelMap: ChannelMap()
        case .keyZones(let zones): KeyZones(zones: zones)
        case .velocityCurve: VelocityCurve()
        case .controllerMap(let routes): ControllerMap(routes: routes)
        case .chord(let intervals): ChordGenerator(intervals: intervals)
        case .arpeggiator: Arpeggiator()
        }
    }
}
