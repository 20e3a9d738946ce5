import SoundFont

/// A font's presets flattened for the render thread: every (preset zone × instrument zone)
/// pair that can sound becomes a region with its key and velocity ranges, its sample, its
/// generator values (instrument values plus preset offsets, SF2.01 section 9.4) and its
/// modulators (defaults, then the instrument's, then the preset's, section 9.5).
///
/// Built once on the control side; immutable afterwards. Everything the render thread reads
/// is in plain buffers, so reading allocates and counts no references.
///
/// - Thread: any: `init` on control; the lookups are render-safe.
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
        var builder = Builder(font: font)
        var presetList: [Preset] = []
        for preset in font.presets.sorted(by: { ($0.bank, $0.program) < ($1.bank, $1.program) }) {
            let key = Int32(preset.bank << 7 | preset.program)
            guard presetList.last?.key != key else { continue }  // the first of duplicates wins, as in FluidSynth
            let first = builder.regions.count
            builder.addRegions(of: preset)
            presetList.append(Preset(key: key, regions: first..<builder.regions.count))
        }
        let sampleCount = font.sampleData.frameCount
        regions = builder.regions.buffer
        generators = builder.generators.buffer
        modulations = builder.modulations.buffer
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

    /// The flat lists the map is built into, region by region, with no array per region
    /// (opening a font is the user's wait for the first note): each list is one allocation
    /// as large as the font could need, filled in place and adopted by the map.
    /// - Thread: control.
    private struct Builder {
        let font: SoundFont
        var regions: FlatList<Region>, generators: FlatList<Float>, modulations: FlatList<Modulation>
        /// Scratch for one preset zone: its generator offsets and modulators.
        private var offsets = [Float](repeating: 0, count: GeneratorKind.count)
        private var presetModulations: [Modulation] = []

        init(font: SoundFont) {
            self.font = font
            // At most a region per (preset zone × instrument zone), each with the default
            // modulators and those of its four zones (merging only removes some).
            var regionBound = 0, modulationBound = 0
            for preset in font.presets {
                let presetGlobal = preset.zones.first(where: \.isGlobal)?.modulators.count ?? 0
                for presetZone in preset.zones {
                    guard let index = presetZone.target else { continue }
                    let zones = font.instruments[index].zones
                    let shared = Modulation.defaults.count + presetGlobal + presetZone.modulators.count
                        + (zones.first(where: \.isGlobal)?.modulators.count ?? 0)
                    for zone in zones {
                        regionBound += 1
                        modulationBound += shared + zone.modulators.count
                    }
                }
            }
            regions = FlatList(capacity: regionBound)
            generators = FlatList(capacity: regionBound * GeneratorKind.count)
            modulations = FlatList(capacity: modulationBound)
        }

        /// Every (preset zone × instrument zone) pair of `preset` that can sound, as regions.
        mutating func addRegions(of preset: SoundFontPreset) {
            let presetGlobal = preset.zones.first(where: \.isGlobal)
            for presetZone in preset.zones {
                guard let instrumentIndex = presetZone.target else { continue }
                let instrument = font.instruments[instrumentIndex]
                let instrumentGlobal = instrument.zones.first(where: \.isGlobal)
                let presetKeys = Self.range(GeneratorKind.keyRange, presetZone, presetGlobal)
                let presetVelocities = Self.range(GeneratorKind.velocityRange, presetZone, presetGlobal)
                for kind in offsets.indices { offsets[kind] = 0 }
                setOffsets(from: presetGlobal)
                setOffsets(from: presetZone)
                presetModulations.removeAll(keepingCapacity: true)
                Self.merge(presetGlobal?.modulators, into: &presetModulations, from: 0)
                Self.merge(presetZone.modulators, into: &presetModulations, from: 0)
                for zone in instrument.zones {
                    guard let sampleIndex = zone.target, !font.samples[sampleIndex].isROM,
                          let keys = Self.intersection(presetKeys, Self.range(GeneratorKind.keyRange, zone, instrumentGlobal)),
                          let velocities = Self.intersection(presetVelocities,
                                                             Self.range(GeneratorKind.velocityRange, zone, instrumentGlobal))
                    else { continue }
                    addRegion(zone, instrumentGlobal, keys: keys, velocities: velocities, sample: sampleIndex)
                }
            }
        }

        /// One region: the instrument zone's generators (over its global zone's and the
        /// defaults) plus the preset's offsets; the default modulators, the instrument's
        /// replacing identical ones, the preset's added to identical ones.
        private mutating func addRegion(_ zone: SoundFontZone, _ instrumentGlobal: SoundFontZone?, keys: ClosedRange<UInt8>,
                                        velocities: ClosedRange<UInt8>, sample: Int) {
            let generatorStart = generators.count
            generators.append(contentsOf: GeneratorKind.defaults)
            setGenerators(from: instrumentGlobal, at: generatorStart)
            setGenerators(from: zone, at: generatorStart)
            for kind in 0..<GeneratorKind.count { generators[generatorStart + kind] += offsets[kind] }
            let modulationStart = modulations.count
            modulations.append(contentsOf: Modulation.defaults)
            Self.merge(instrumentGlobal?.modulators, into: &modulations, from: modulationStart)
            Self.merge(zone.modulators, into: &modulations, from: modulationStart)
            for modulation in presetModulations {
                if let same = Self.identical(to: modulation, in: modulations, from: modulationStart) {
                    modulations[same].amount += modulation.amount
                } else {
                    modulations.append(modulation)
                }
            }
            regions.append(Region(keys: keys, velocities: velocities, sample: Int32(sample), generators: Int32(generatorStart),
                                  modulations: modulationStart..<modulations.count))
        }

        private mutating func setOffsets(from zone: SoundFontZone?) {
            for generator in zone?.generators ?? [] where GeneratorKind.presetMayOffset(Int(generator.kind)) {
                offsets[Int(generator.kind)] = Self.amount(generator)
            }
        }

        private mutating func setGenerators(from zone: SoundFontZone?, at start: Int) {
            for generator in zone?.generators ?? [] where GeneratorKind.instrumentMaySet(Int(generator.kind)) {
                generators[start + Int(generator.kind)] = Self.amount(generator)
            }
        }

        /// `level`'s modulators onto `list[start...]`: one identical to an earlier one replaces it.
        private static func merge<List: ModulationList>(_ level: [SoundFontModulator]?, into list: inout List, from start: Int) {
            for modulator in level ?? [] {
                guard let modulation = Modulation(modulator) else { continue }
                if let same = identical(to: modulation, in: list, from: start) {
                    list[same] = modulation
                } else {
                    list.append(modulation)
                }
            }
        }

        /// The index of the modulator in `list[start...]` identical to `modulation`.
        private static func identical<List: ModulationList>(to modulation: Modulation, in list: List, from start: Int) -> Int? {
            var index = start
            while index < list.count {
                if list[index].isIdentical(to: modulation) { return index }
                index += 1
            }
            return nil
        }

        private static func amount(_ generator: SoundFontGenerator) -> Float {
            let value = Float(generator.signedAmount)
            return Int(generator.kind) == GeneratorKind.attenuation ? value * GeneratorKind.attenuationScale : value
        }

        /// The zone's key or velocity range, else its global zone's, else everything.
        private static func range(_ kind: Int, _ zone: SoundFontZone, _ global: SoundFontZone?) -> ClosedRange<UInt8> {
            if let generator = zone.generators.first(where: { Int($0.kind) == kind }) { return generator.range }
            if let generator = global?.generators.first(where: { Int($0.kind) == kind }) { return generator.range }
            return 0...127
        }

        private static func intersection(_ a: ClosedRange<UInt8>, _ b: ClosedRange<UInt8>) -> ClosedRange<UInt8>? {
            let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
            return low <= high ? low...high : nil
        }
    }
}

/// The modulator lists the builder merges into: a preset zone's scratch array and the map's list.
/// - Thread: control (while building).
private protocol ModulationList {
    var count: Int { get }
    subscript(index: Int) -> Modulation { get set }
    mutating func append(_ modulation: Modulation)
}

extension Array: ModulationList where Element == Modulation {}

/// A list in one allocation of a known largest size: appending never moves it, and its
/// pages cost memory only once written. Its `buffer` is handed on, not freed here.
/// - Thread: control (while building).
private struct FlatList<Element> {
    let base: UnsafeMutablePointer<Element>
    let capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        base = .allocate(capacity: self.capacity)
    }

    subscript(index: Int) -> Element {
        get { base[index] }
        set { base[index] = newValue }
    }

    mutating func append(_ element: Element) {
        precondition(count < capacity, "the font needs more than its computed bound")
        (base + count).initialize(to: element)
        count += 1
    }

    mutating func append(contentsOf elements: [Element]) {
        for element in elements { append(element) }
    }

    /// The elements written, over the whole allocation (`deallocate()` frees it).
    var buffer: UnsafeMutableBufferPointer<Element> { UnsafeMutableBufferPointer(start: base, count: count) }
}

extension FlatList: ModulationList where Element == Modulation {}

/// - Thread: control (allocates).
extension UnsafeMutableBufferPointer {
    /// A new buffer holding a copy of `elements` (the caller deallocates it).
    static func allocate(copying elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return buffer
    }
}
