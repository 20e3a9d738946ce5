import SoundFont

/// A font's presets flattened for the render thread: every (preset zone × instrument zone)
/// pair that can sound becomes a region with its key and velocity ranges, its sample, its
/// generator values (instrument values plus preset offsets, SF2.01 section 9.4) and its
/// modulators (defaults, then the instrument's, then the preset's, section 9.5).
///
/// Built once on the control side; immutable afterwards. Everything the render thread reads
/// is in plain buffers, so reading allocates and counts no references.
///
/// - Thread: `init` on control; the lookups are render-safe.
final class SoundFontVoiceMap: @unchecked Sendable {
    struct Region {
        var keys: ClosedRange<UInt8>
        var velocities: ClosedRange<UInt8>
        var sample: Int32
        /// Offset of this region's `GeneratorKind.count` values in `generators`.
        var generators: Int32
        /// Indices into `modulations` (`Int` ranges: iterating an `Int32` range goes through
        /// generic code that allocates in debug builds).
        var modulations: Range<Int>
    }

    /// A sample header, with its frames checked against the sample data.
    struct Sample {
        var start: Int, end: Int, loopStart: Int, loopEnd: Int
        var sampleRate: Float
        var originalPitch: Int
        var pitchCorrection: Int
    }

    /// A preset: its key is `bank << 7 | program`.
    struct Preset {
        var key: Int32
        var regions: Range<Int>
    }

    let font: SoundFont
    let frames: SoundFontFrames
    let regions: UnsafeMutableBufferPointer<Region>
    let generators: UnsafeMutableBufferPointer<Float>
    let modulations: UnsafeMutableBufferPointer<Modulation>
    let samples: UnsafeMutableBufferPointer<Sample>
    /// Sorted by key.
    let presets: UnsafeMutableBufferPointer<Preset>

    /// - Thread: control.
    init(font: SoundFont) {
        self.font = font
        frames = font.sampleData.frames
        var regionList: [Region] = [], generatorList: [Float] = [], modulationList: [Modulation] = []
        var presetList: [Preset] = []
        for preset in font.presets.sorted(by: { ($0.bank, $0.program) < ($1.bank, $1.program) }) {
            let key = Int32(preset.bank << 7 | preset.program)
            guard presetList.last?.key != key else { continue }  // the first of duplicates wins, as in FluidSynth
            let first = regionList.count
            for region in Self.regions(of: preset, in: font) {
                regionList.append(Region(keys: region.keys, velocities: region.velocities, sample: Int32(region.sample),
                                         generators: Int32(generatorList.count),
                                         modulations: modulationList.count..<modulationList.count + region.modulations.count))
                generatorList += region.generators
                modulationList += region.modulations
            }
            presetList.append(Preset(key: key, regions: first..<regionList.count))
        }
        let sampleCount = font.sampleData.frameCount
        regions = .allocate(copying: regionList)
        generators = .allocate(copying: generatorList)
        modulations = .allocate(copying: modulationList)
        presets = .allocate(copying: presetList)
        samples = .allocate(copying: font.samples.map { sample in
            let end = min(sample.end, sampleCount)
            return Sample(start: min(sample.start, end), end: end, loopStart: min(sample.loopStart, end),
                          loopEnd: min(sample.loopEnd, end), sampleRate: Float(max(sample.sampleRate, 1)),
                          originalPitch: sample.originalPitch, pitchCorrection: sample.pitchCorrection)
        })
    }

    deinit {
        regions.deallocate()
        generators.deallocate()
        modulations.deallocate()
        samples.deallocate()
        presets.deallocate()
    }

    /// The index of preset `bank`/`program`, or -1.
    /// - Thread: render-safe.
    func presetIndex(bank: Int, program: Int) -> Int {
        let key = Int32(truncatingIfNeeded: bank << 7 | program)
        var low = 0, high = presets.count
        while low < high {
            let middle = (low + high) / 2
            if presets[middle].key < key { low = middle + 1 } else { high = middle }
        }
        return low < presets.count && presets[low].key == key ? low : -1
    }

    /// The preset a channel plays: `bank`/`program`, else the same program in bank 0 (a GM
    /// player's fallback for unknown variation banks), else program 0 of the bank (drum
    /// kits), else -1 (silence).
    /// - Thread: render-safe.
    func resolvePreset(bank: Int, program: Int) -> Int {
        let exact = presetIndex(bank: bank, program: program)
        if exact >= 0 { return exact }
        let fallback = bank == Self.percussionBank ? presetIndex(bank: bank, program: 0) : presetIndex(bank: 0, program: program)
        return fallback >= 0 ? fallback : presetIndex(bank: bank == Self.percussionBank ? bank : 0, program: 0)
    }

    /// The bank General MIDI percussion kits live in.
    static let percussionBank = 128

    // MARK: Building (control side)

    private struct BuiltRegion {
        var keys: ClosedRange<UInt8>, velocities: ClosedRange<UInt8>
        var sample: Int
        var generators: [Float]
        var modulations: [Modulation]
    }

    private static func regions(of preset: SoundFontPreset, in font: SoundFont) -> [BuiltRegion] {
        let presetGlobal = preset.zones.first(where: \.isGlobal)
        var built: [BuiltRegion] = []
        for presetZone in preset.zones {
            guard let instrumentIndex = presetZone.target else { continue }
            let instrument = font.instruments[instrumentIndex]
            let instrumentGlobal = instrument.zones.first(where: \.isGlobal)
            let presetKeys = range(GeneratorKind.keyRange, presetZone, presetGlobal)
            let presetVelocities = range(GeneratorKind.velocityRange, presetZone, presetGlobal)
            var offsets = [Float](repeating: 0, count: GeneratorKind.count)
            for zone in [presetGlobal, presetZone].compactMap({ $0 }) {
                for generator in zone.generators where GeneratorKind.presetMayOffset(Int(generator.kind)) {
                    offsets[Int(generator.kind)] = amount(generator)
                }
            }
            let presetModulations = merged([presetGlobal, presetZone].compactMap { $0?.modulators }, onto: [])
            for zone in instrument.zones {
                guard let sampleIndex = zone.target, !font.samples[sampleIndex].isROM,
                      let keys = intersection(presetKeys, range(GeneratorKind.keyRange, zone, instrumentGlobal)),
                      let velocities = intersection(presetVelocities, range(GeneratorKind.velocityRange, zone, instrumentGlobal))
                else { continue }
                var generators = GeneratorKind.defaults
                for source in [instrumentGlobal, zone].compactMap({ $0 }) {
                    for generator in source.generators where GeneratorKind.instrumentMaySet(Int(generator.kind)) {
                        generators[Int(generator.kind)] = amount(generator)
                    }
                }
                for kind in 0..<GeneratorKind.count { generators[kind] += offsets[kind] }
                var modulations = merged([instrumentGlobal, zone].compactMap { $0?.modulators }, onto: Modulation.defaults)
                for modulation in presetModulations {
                    if let same = modulations.firstIndex(where: { $0.isIdentical(to: modulation) }) {
                        modulations[same].amount += modulation.amount
                    } else {
                        modulations.append(modulation)
                    }
                }
                built.append(BuiltRegion(keys: keys, velocities: velocities, sample: sampleIndex,
                                         generators: generators, modulations: modulations))
            }
        }
        return built
    }

    /// `base` with each level's modulators in turn: one identical to an earlier one replaces it.
    private static func merged(_ levels: [[SoundFontModulator]], onto base: [Modulation]) -> [Modulation] {
        var result = base
        for level in levels {
            for modulation in level.compactMap(Modulation.init) {
                if let same = result.firstIndex(where: { $0.isIdentical(to: modulation) }) {
                    result[same] = modulation
                } else {
                    result.append(modulation)
                }
            }
        }
        return result
    }

    private static func amount(_ generator: SoundFontGenerator) -> Float {
        let value = Float(generator.signedAmount)
        return Int(generator.kind) == GeneratorKind.attenuation ? value * GeneratorKind.attenuationScale : value
    }

    /// The zone's key or velocity range, else its global zone's, else everything.
    private static func range(_ kind: Int, _ zone: SoundFontZone, _ global: SoundFontZone?) -> ClosedRange<UInt8> {
        for source in [zone, global].compactMap({ $0 }) {
            if let generator = source.generators.first(where: { Int($0.kind) == kind }) { return generator.range }
        }
        return 0...127
    }

    private static func intersection(_ a: ClosedRange<UInt8>, _ b: ClosedRange<UInt8>) -> ClosedRange<UInt8>? {
        let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
        return low <= high ? low...high : nil
    }
}

extension UnsafeMutableBufferPointer {
    /// A new buffer holding a copy of `elements` (the caller deallocates it).
    static func allocate(copying elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return buffer
    }
}
