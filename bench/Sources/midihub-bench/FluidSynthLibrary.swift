import Foundation

/// FluidSynth's C library, opened at run time (`dlopen`, no headers needed), so the
/// polyphony row can time FluidSynth's 64-frame blocks in-process exactly as it times
/// midihub's, and count FluidSynth's sounding voices.
final class FluidSynthLibrary {
    private typealias NewSettings = @convention(c) () -> OpaquePointer?
    private typealias SetInt = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> Int32
    private typealias SetNum = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Double) -> Int32
    private typealias NewSynth = @convention(c) (OpaquePointer?) -> OpaquePointer?
    private typealias Delete = @convention(c) (OpaquePointer?) -> Void
    private typealias Load = @convention(c) (OpaquePointer?, UnsafePointer<CChar>, Int32) -> Int32
    private typealias SynthInt2 = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
    private typealias SynthInt3 = @convention(c) (OpaquePointer?, Int32, Int32, Int32) -> Int32
    private typealias SynthQuery = @convention(c) (OpaquePointer?) -> Int32
    private typealias WriteFloat = @convention(c) (OpaquePointer?, Int32, UnsafeMutableRawPointer?, Int32, Int32,
                                                   UnsafeMutableRawPointer?, Int32, Int32) -> Int32

    private let handle: UnsafeMutableRawPointer
    private let settings: OpaquePointer?
    private let synth: OpaquePointer?
    private let deleteSynth: Delete, deleteSettings: Delete
    private let programChange: SynthInt2, noteOn: SynthInt3
    private let voiceCount: SynthQuery, writeFloat: WriteFloat

    /// A synth at `sampleRate` on one core with `midiChannels` channels, at most
    /// `polyphony` voices and `soundFont` loaded.
    init(soundFont: String, sampleRate: Double, midiChannels: Int32, polyphony: Int32) throws {
        guard let handle = dlopen("libfluidsynth.so.3", RTLD_NOW) else {
            throw BenchmarkError(description: "cannot open libfluidsynth.so.3 (fix: install the Debian package 'libfluidsynth3')")
        }
        self.handle = handle
        func symbol<T>(_ name: String, as type: T.Type) throws -> T {
            guard let address = dlsym(handle, name) else {
                throw BenchmarkError(description: "libfluidsynth.so.3 has no \(name)")
            }
            return unsafeBitCast(address, to: type)
        }
        let setInt = try symbol("fluid_settings_setint", as: SetInt.self)
        let setNum = try symbol("fluid_settings_setnum", as: SetNum.self)
        settings = try symbol("new_fluid_settings", as: NewSettings.self)()
        _ = setNum(settings, "synth.sample-rate", sampleRate)
        _ = setInt(settings, "synth.cpu-cores", 1)
        _ = setInt(settings, "synth.midi-channels", midiChannels)
        _ = setInt(settings, "synth.polyphony", polyphony)
        synth = try symbol("new_fluid_synth", as: NewSynth.self)(settings)
        deleteSynth = try symbol("delete_fluid_synth", as: Delete.self)
        deleteSettings = try symbol("delete_fluid_settings", as: Delete.self)
        programChange = try symbol("fluid_synth_program_change", as: SynthInt2.self)
        noteOn = try symbol("fluid_synth_noteon", as: SynthInt3.self)
        voiceCount = try symbol("fluid_synth_get_active_voice_count", as: SynthQuery.self)
        writeFloat = try symbol("fluid_synth_write_float", as: WriteFloat.self)
        guard try symbol("fluid_synth_sfload", as: Load.self)(synth, soundFont, 1) >= 0 else {
            throw BenchmarkError(description: "FluidSynth cannot load \(soundFont)")
        }
    }

    deinit {
        deleteSynth(synth)
        deleteSettings(settings)
        // No dlclose: reopening the library re-registers its GLib types, which fails.
    }

    func programChange(channel: Int, program: Int) { _ = programChange(synth, Int32(channel), Int32(program)) }
    func noteOn(channel: Int, key: Int, velocity: Int) { _ = noteOn(synth, Int32(channel), Int32(key), Int32(velocity)) }
    var activeVoices: Int { Int(voiceCount(synth)) }

    /// Renders `frames` stereo frames into `left`/`right`.
    func render(frames: Int, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>) {
        _ = writeFloat(synth, Int32(frames), left, 0, 1, right, 0, 1)
    }
}
