/// One MIDI channel as the soundfont instrument sees it: the synth's controller state
/// (program, sustain, bend and its RPN 0 range) plus the bank, the preset it resolves to,
/// the raw pitch wheel and channel pressure that modulators read.
///
/// - Thread: render (a plain value inside the node).
struct SoundFontChannel {
    var state = ChannelState()
    /// Bank select MSB (CC 0); the LSB is ignored, as General MIDI players do.
    var bank: UInt8 = 0
    /// Index into the voice map's presets, or -1 (the channel is silent).
    var preset: Int32 = -1
    var pitchWheel: UInt16 = 8192
    var pressure: UInt8 = 0
    /// The generator a SoundFont NRPN (MSB 120) selects, summed from its LSBs as FluidSynth
    /// does (100, 101, 102 add 100, 1000, 10000; below 100 adds itself).
    var nrpnSelect = 0

    /// The controller values a channel starts with (and CC 121 restores, but for volume and
    /// pan): volume 100, pan centre, expression full.
    static func initialControllers(_ controllers: UnsafeMutablePointer<UInt8>) {
        controllers.update(repeating: 0, count: 128)
        controllers[7] = 100
        controllers[10] = 64
        controllers[11] = 127
    }
}
