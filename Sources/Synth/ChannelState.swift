/// The controller state of one MIDI channel, as the synth sees it.
///
/// - Thread: render (a plain value inside the synth).
struct ChannelState {
    var program = 0
    var volume: Float = 100.0 / 127
    var expression: Float = 1
    /// -1 (left) … 1 (right).
    var pan: Float = 0
    var sustain = false
    /// Modulation wheel, 0…1.
    var wheel: Float = 0
    /// Pitch bend, -1…1.
    var bend: Float = 0
    /// Pitch-bend range in semitones (RPN 0).
    var bendRange: Float = 2
    /// Selected registered parameter (MSB, LSB); 127/127 is "none".
    var rpn: (msb: UInt8, lsb: UInt8) = (127, 127)
    /// Registered parameters use CC 101/100; a non-registered selection (CC 99/98) disables data entry.
    var dataEntryTargetsRPN = true
    /// The pitch of the last note started on the channel (where the next one glides from), -1: none yet.
    var lastPitch: Float = -1

    /// Volume × expression with the General MIDI square law.
    var gain: Float { let v = volume * expression; return v * v }

    var bendSemitones: Float { bend * bendRange }

    /// CC 121: resets the controllers GM lists (not volume, pan or program).
    mutating func resetControllers() {
        expression = 1
        sustain = false
        wheel = 0
        bend = 0
        rpn = (127, 127)
        dataEntryTargetsRPN = true
    }

    /// Applies a controller that only changes channel state (not voices).
    /// - Returns: false when the controller is not one of these.
    mutating func applyController(_ controller: UInt8, _ value: UInt8) -> Bool {
        let v = Float(value)
        switch controller {
        case 1: wheel = v / 127
        case 7: volume = v / 127
        case 10: pan = max(-1, (v - 64) / 63)
        case 11: expression = v / 127
        case 101: rpn.msb = value; dataEntryTargetsRPN = true
        case 100: rpn.lsb = value; dataEntryTargetsRPN = true
        case 99, 98: dataEntryTargetsRPN = false
        case 6:
            if dataEntryTargetsRPN && rpn == (0, 0) {
                bendRange = v + (bendRange - bendRange.rounded(.down))
            }
        case 38:
            if dataEntryTargetsRPN && rpn == (0, 0) {
                bendRange = bendRange.rounded(.down) + v / 100
            }
        default: return false
        }
        return true
    }
}
