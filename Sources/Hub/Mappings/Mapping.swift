/// One controller mapping: what a controller sends (`source`, on a channel, from a source
/// node's ports), how it is read (`mode`, `pickup`) and the parameters it moves (`targets`,
/// each with its own range and curve). See docs/mappings.md.
///
/// - Thread: any (a plain value).
public struct Mapping: Hashable, Sendable, Codable {
    /// The source node whose ports the control comes from; `nil`: any port MIDI reaches the hub from.
    public var from: NodeID?
    /// MIDI channel 0…15; `nil`: any channel.
    public var channel: UInt8?
    public var source: ControlSource
    public var mode: ControlMode
    public var pickup: PickupMode
    /// For relative encoders: the share of the range one tick moves, before acceleration.
    public var step: Double
    /// For relative encoders: how much faster a tick of magnitude n moves than n ticks (0: not at all).
    public var acceleration: Double
    /// Whether the mapped messages also go on into the graph (by default a mapping takes them).
    public var passes: Bool
    /// Whether the controller is sent the value when it changes elsewhere (`MappingFeedback`),
    /// on the writable ports of the `from` node's controller.
    public var feedback: Bool
    public var targets: [MappingTarget]

    public init(from: NodeID? = nil, channel: UInt8? = nil, source: ControlSource, mode: ControlMode = .absolute,
                pickup: PickupMode = .jump, step: Double = Mapping.defaultStep, acceleration: Double = 0,
                passes: Bool = false, feedback: Bool = false, targets: [MappingTarget]) {
        self.from = from
        self.channel = channel
        self.source = source
        self.mode = mode
        self.pickup = pickup
        self.step = step
        self.acceleration = acceleration
        self.passes = passes
        self.feedback = feedback
        self.targets = targets
    }

    /// One tick of a relative encoder moves 1/128 of the range: a full turn of 128 ticks spans it.
    public static let defaultStep = 1.0 / 128
}

/// What a mapping listens to.
///
/// - Thread: any (a plain value).
public enum ControlSource: Hashable, Sendable, Codable {
    /// A 7-bit control change.
    case controller(UInt8)
    /// A 14-bit control change: MSB on controller n (0…31), LSB on n + 32.
    case controllerPair(UInt8)
    /// A non-registered parameter (0…16383) through data entry (CC 6/38) and increment/decrement (CC 96/97); `fine`: 14-bit values.
    case nrpn(UInt16, fine: Bool)
    /// A registered parameter, as `nrpn`.
    case rpn(UInt16, fine: Bool)
    case note(UInt8)
    case pitchBend
    case channelPressure
    case polyPressure(UInt8)
    case programChange

    /// The source as a patch writes it (`cc 74`, `nrpn 1000`).
    public var label: String {
        switch self {
        case .controller(let number): "cc \(number)"
        case .controllerPair(let number): "cc14 \(number)"
        case .nrpn(let number, _): "nrpn \(number)"
        case .rpn(let number, _): "rpn \(number)"
        case .note(let number): "note \(number)"
        case .pitchBend: "pitch bend"
        case .channelPressure: "channel pressure"
        case .polyPressure(let number): "poly pressure \(number)"
        case .programChange: "program change"
        }
    }

    /// Whether its values have 14 bits (increments of NRPN and RPN data step by 1/16383).
    var isFine: Bool {
        switch self {
        case .controllerPair, .pitchBend: true
        case .nrpn(_, let fine), .rpn(_, let fine): fine
        default: false
        }
    }

    /// Whether a press and a release can be read from it (notes, and controllers as buttons).
    var isButton: Bool {
        switch self {
        case .note, .controller: true
        default: false
        }
    }
}

/// How a mapping reads its source's values.
/// - Thread: any (a plain value).
public enum ControlMode: Hashable, Sendable, Codable {
    /// The value is the position (a knob, a fader).
    case absolute
    /// Each message moves the position by a signed number of ticks (an endless encoder).
    case relative(RelativeEncoding)
    /// Presses and releases (a pad, a key, a button sending 127 and 0).
    case button(ButtonMode)
    /// A note's velocity is the position; its note-off changes nothing.
    case velocity
}

/// - Thread: any (a plain value).
extension ControlMode {
    /// Whether the controller itself stands where it sent the value (a knob, a fader), so
    /// showing it its own moves would only echo them.
    var controllerKnowsPosition: Bool {
        switch self {
        case .absolute, .velocity: true
        case .relative, .button: false
        }
    }
}

/// The three ways controllers send an endless encoder's ticks in a 7-bit value.
///
/// - Thread: any (a plain value).
public enum RelativeEncoding: String, Hashable, Sendable, Codable, CaseIterable {
    /// 1…63 up, 127…65 down by 128 − value (Ableton "Two's Complement", Behringer "Relative 1").
    case twosComplement = "twos-complement"
    /// 1…63 up, 65…127 down by value − 64: bit 6 is the sign (Ableton "Signed Bit").
    case signMagnitude = "sign-magnitude"
    /// 65…127 up by value − 64, 63…0 down by 64 − value (Ableton "Binary Offset", Arturia "Relative 1").
    case offset64 = "offset-64"

    /// The signed number of ticks `value` carries.
    public func ticks(_ value: UInt8) -> Int {
        let value = Int(value & 0x7F)
        switch self {
        case .twosComplement: return value < 64 ? value : value - 128
        case .signMagnitude: return value & 0x40 == 0 ? value : -(value & 0x3F)
        case .offset64: return value - 64
        }
    }
}

/// What a press and a release do.
/// - Thread: any (a plain value).
public enum ButtonMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// On while held.
    case momentary
    /// Each press switches on or off.
    case toggle
    /// A tap switches on or off; a longer hold is on only while held.
    case latch
    /// Each press sets the top of the range; releases do nothing.
    case trigger
}

/// What happens when an absolute control's position and the parameter's value differ
/// (the value was changed elsewhere, or the knob was moved while not mapped).
/// - Thread: any (a plain value).
public enum PickupMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// The parameter jumps to the control's position.
    case jump
    /// The control moves nothing until it reaches or crosses the parameter's value.
    case pickup
    /// The parameter moves toward where the control is going, so both meet at its end of travel.
    case scaled
}
