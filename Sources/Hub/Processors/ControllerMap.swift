import RenderCore

/// Remaps and filters control changes: `routes` sends controller `from` to controller `to`
/// (or drops it when `to` is nil). Parameter `pass unmapped` (1/0) decides what happens to
/// controllers not in `routes`. Other messages pass.
///
/// - Thread: owner (the MIDI input thread, where the router runs it); a plain value.
public struct ControllerMap: MIDIProcessor {
    /// One remapping: controller `from` to controller `to`, or dropped.
    ///
    /// - Thread: any (a plain value).
    public struct Route: Hashable, Codable, Sendable {
        public var from: UInt8
        /// `nil` drops the controller.
        public var to: UInt8?

        public init(from: UInt8, to: UInt8?) {
            self.from = from
            self.to = to
        }
    }

    private static let unmapped: Int16 = -2
    private static let dropped: Int16 = -1
    public let parameterInfos = [
        ParameterInfo(id: 0, name: "pass unmapped", range: 0...1, defaultValue: 1, unit: .boolean),
    ]
    /// Per source controller: target 0…127, `dropped` or `unmapped`.
    private var table: [Int16]

    /// Controllers as `routes` say; the others pass while `pass unmapped` is 1.
    /// - Thread: any but render (the router makes it on the owner, `NodeRegistry` on control).
    public init(routes: [Route]) {
        table = Array(repeating: Self.unmapped, count: 128)
        for route in routes { table[Int(route.from & 0x7F)] = route.to.map { Int16($0 & 0x7F) } ?? Self.dropped }
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        guard case .controlChange(let channel, let controller, let value) = event.message else { return output.append(event) }
        switch table[Int(controller & 0x7F)] {
        case Self.unmapped:
            if parameters[0] >= 0.5 { output.append(event) }
        case Self.dropped:
            break
        case let target:
            output.append(TimedMIDI(time: event.time,
                                    message: .controlChange(channel: channel, controller: UInt8(target), value: value)))
        }
    }
}
