import MIDICore

/// What one message says about one control: a value, a number of ticks, a press or a release.
/// A message may say something about several controls (CC 6 is controller 6 and the data
/// entry of the selected NRPN).
///
/// - Thread: owner (the MIDI input thread); a plain value.
public struct ControllerReading: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A 7-bit value: a controller, a pressure, a program, a velocity.
        case value(UInt8)
        /// A 14-bit value: pitch bend, a 14-bit pair or data entry (an MSB alone reads as its LSB 0).
        case fine(UInt16)
        /// Increment (+1) or decrement (−1) of a parameter number's value.
        case step(Int)
        /// A note-on with its velocity.
        case press(UInt8)
        /// A note-off.
        case release
    }

    public var source: ControlSource
    public var channel: UInt8
    public var kind: Kind
}

/// Reads controls out of the messages of one device: pairs 14-bit controllers, follows
/// NRPN and RPN selection (CC 99/98, 101/100, the null reset 127/127) for data entry
/// (CC 6/38) and increment/decrement (CC 96/97), as MIDI 1.0 says — an MSB resets its LSB.
///
/// - Thread: owner (the MIDI input thread); a plain value per device.
struct ControllerDecoder {
    private struct Channel {
        /// The last MSB of each 14-bit pair (controllers 0…31).
        var pairMSB = [UInt8](repeating: 0, count: 32)
        var parameterMSB: UInt8?
        var parameterLSB: UInt8?
        var registered = false
        var dataMSB: UInt8 = 0
    }

    private var channels = [Channel](repeating: Channel(), count: 16)

    /// Appends to `readings` what `message` says.
    mutating func read(_ message: MIDIMessage, into readings: inout [ControllerReading]) {
        switch message {
        case .controlChange(let channel, let controller, let value):
            readController(channel: channel & 0x0F, controller & 0x7F, value & 0x7F, into: &readings)
        case .noteOn(let channel, let note, let velocity) where velocity > 0:
            readings.append(ControllerReading(source: .note(note), channel: channel, kind: .press(velocity)))
        case .noteOn(let channel, let note, _), .noteOff(let channel, let note, _):
            readings.append(ControllerReading(source: .note(note), channel: channel, kind: .release))
        case .pitchBend(let channel, let value):
            readings.append(ControllerReading(source: .pitchBend, channel: channel, kind: .fine(value)))
        case .channelPressure(let channel, let pressure):
            readings.append(ControllerReading(source: .channelPressure, channel: channel, kind: .value(pressure)))
        case .polyPressure(let channel, let note, let pressure):
            readings.append(ControllerReading(source: .polyPressure(note), channel: channel, kind: .value(pressure)))
        case .programChange(let channel, let program):
            readings.append(ControllerReading(source: .programChange, channel: channel, kind: .value(program)))
        default:
            return
        }
    }

    private mutating func readController(channel: UInt8, _ controller: UInt8, _ value: UInt8,
                                         into readings: inout [ControllerReading]) {
        readings.append(ControllerReading(source: .controller(controller), channel: channel, kind: .value(value)))
        var state = channels[Int(channel)]
        defer { channels[Int(channel)] = state }
        switch controller {
        case 0..<32:
            state.pairMSB[Int(controller)] = value
            readings.append(ControllerReading(source: .controllerPair(controller), channel: channel, kind: .fine(UInt16(value) << 7)))
        case 32..<64:
            let msb = state.pairMSB[Int(controller - 32)]
            readings.append(ControllerReading(source: .controllerPair(controller - 32), channel: channel,
                                              kind: .fine(UInt16(msb) << 7 | UInt16(value))))
        default:
            break
        }
        switch controller {
        case 99, 98, 101, 100:
            let registered = controller >= 100
            if registered != state.registered { state.parameterMSB = nil; state.parameterLSB = nil }
            state.registered = registered
            if controller == 99 || controller == 101 { state.parameterMSB = value } else { state.parameterLSB = value }
            if registered, state.parameterMSB == 127, state.parameterLSB == 127 {
                state.parameterMSB = nil
                state.parameterLSB = nil
            }
        case 6, 38, 96, 97:
            guard let number = Self.parameter(state) else { return }
            for fine in [false, true] {
                let source: ControlSource = state.registered ? .rpn(number, fine: fine) : .nrpn(number, fine: fine)
                let kind: ControllerReading.Kind
                switch controller {
                case 6:
                    state.dataMSB = value
                    kind = fine ? .fine(UInt16(value) << 7) : .value(value)
                case 38:
                    guard fine else { continue }
                    kind = .fine(UInt16(state.dataMSB) << 7 | UInt16(value))
                default:
                    kind = .step(controller == 96 ? 1 : -1)
                }
                readings.append(ControllerReading(source: source, channel: channel, kind: kind))
            }
        default:
            break
        }
    }

    private static func parameter(_ state: Channel) -> UInt16? {
        guard let msb = state.parameterMSB, let lsb = state.parameterLSB else { return nil }
        return UInt16(msb) << 7 | UInt16(lsb)
    }
}
