import Foundation
import SoundFont
import TestSupport

/// A SoundFont built for a test: one sample, one preset (bank/program) whose one
/// instrument has the given zones, each playing that sample with its own generators.
struct TestSoundFont: SoundFontBytes {
    struct Zone {
        var keys: ClosedRange<UInt8> = 0...127
        /// (SF2 generator operator, amount) pairs.
        var generators: [(UInt16, Int)] = []
    }

    var frames: [Int16]
    var sampleRate: UInt32 = 48_000
    var rootKey: UInt8 = 60
    /// Loop frames (start..<end) in the sample header.
    var loop: Range<Int>?
    var zones: [Zone] = [Zone()]
    var bank: UInt16 = 0
    var program: UInt16 = 0
    /// The `sm24` chunk's low bytes, one a frame: 24-bit frames (the font is then version 2.04).
    var lowBytes: [UInt8]?

    /// `cycles` periods of a sine over `count` frames (loops seamlessly when looped whole).
    static func sine(cycles: Int, count: Int, amplitude: Double = 0.5) -> [Int16] {
        (0..<count).map { Int16((sin(2 * Double.pi * Double(cycles) * Double($0) / Double(count)) * amplitude * 32_767).rounded()) }
    }

    /// The SoundFont (copied, not mapped).
    var font: SoundFont { try! SoundFont(bytes: bytes, file: "test.sf2") }

    var bytes: [UInt8] {
        let info = list("INFO", chunk("ifil", u16(2) + u16(lowBytes == nil ? 1 : 4)) + chunk("INAM", ascii("Test", 8)))
        // 46 zero frames after the sample, as SF2 asks.
        let smpl = (frames + [Int16](repeating: 0, count: 46)).flatMap { u16(UInt16(bitPattern: $0)) }
        let sm24 = lowBytes.map { chunk("sm24", $0 + [UInt8](repeating: 0, count: 46)) } ?? []
        let sdta = list("sdta", chunk("smpl", smpl) + sm24)
        let phdr = ascii("Test Preset", 20) + u16(program) + u16(bank) + u16(0) + u32(0) + u32(0) + u32(0)
            + ascii("EOP", 20) + u16(0) + u16(0) + u16(1) + u32(0) + u32(0) + u32(0)
        let pbag = u16(0) + u16(0) + u16(1) + u16(0)
        let pgen = u16(41) + u16(0) + u16(0) + u16(0)
        let inst = ascii("Test Instrument", 20) + u16(0) + ascii("EOI", 20) + u16(UInt16(zones.count))
        var ibag: [UInt8] = [], igen: [UInt8] = []
        var generatorCount = 0
        for zone in zones {
            ibag += u16(UInt16(generatorCount)) + u16(0)
            let keyRange = (UInt16(43), Int(UInt16(zone.keys.upperBound) << 8 | UInt16(zone.keys.lowerBound)))
            let generators = [keyRange] + zone.generators + [(UInt16(53), 0)]
            for (kind, amount) in generators { igen += u16(kind) + u16(UInt16(truncatingIfNeeded: amount)) }
            generatorCount += generators.count
        }
        ibag += u16(UInt16(generatorCount)) + u16(0)
        igen += u16(0) + u16(0)
        let modulator = [UInt8](repeating: 0, count: 10)
        let loop = loop ?? 0..<0
        let shdr = ascii("Test Sample", 20) + u32(0) + u32(UInt32(frames.count)) + u32(UInt32(loop.lowerBound))
            + u32(UInt32(loop.upperBound)) + u32(sampleRate) + [rootKey, 0] + u16(0) + u16(1)
            + ascii("EOS", 20) + [UInt8](repeating: 0, count: 26)
        return soundFont(info: info, sdta: sdta, hydra: [
            ("phdr", phdr), ("pbag", pbag), ("pmod", modulator), ("pgen", pgen), ("inst", inst), ("ibag", ibag),
            ("imod", modulator), ("igen", igen), ("shdr", shdr),
        ])
    }
}

/// SF2 generator operators the tests set.
enum TestGenerator {
    static let coarseTune: UInt16 = 51, fineTune: UInt16 = 52, sampleModes: UInt16 = 54
    static let exclusiveClass: UInt16 = 57, releaseVolumeEnvelope: UInt16 = 38, attenuation: UInt16 = 48
    static let pan: UInt16 = 17, filterCutoff: UInt16 = 8, filterQ: UInt16 = 9, reverbSend: UInt16 = 16
}
