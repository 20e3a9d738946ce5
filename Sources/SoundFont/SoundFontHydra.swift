/// Reads the `pdta` list (the "hydra": presets, instruments, their bags, generators and
/// modulators, sample headers), checking every record size, count and index before use.
///
/// - Thread: any.
struct SoundFontHydra {
    let walker: RIFFWalker
    let chunks: [String: RIFFChunk]
    /// The bound of a sample's `end`: the frames of `smpl`, or for SF3 its bytes.
    let frameCount: Int
    /// SF3: Vorbis samples' loop points count from their own start; they stay as read
    /// (`SF3Samples` clamps them once decoded).
    var loopsAsRead = false

    /// The records of sub-chunk `id`: its size must be a whole number of `recordSize`
    /// records, at least `minimum` (the hydra ends every list with a terminal record).
    private func records(_ id: String, size recordSize: Int, minimum: Int) throws(SoundFontError)
        -> (chunk: RIFFChunk, count: Int)
    {
        guard let chunk = chunks[id] else {
            throw SoundFontError(file: walker.file, chunk: "pdta/\(id)", offset: chunks.values.map(\.offset).min() ?? 0,
                                 problem: "the '\(id)' chunk is missing")
        }
        guard chunk.size % recordSize == 0 else {
            throw error(id, chunk.offset, "size \(chunk.size) is not a multiple of \(recordSize)")
        }
        let count = chunk.size / recordSize
        guard count >= minimum else {
            throw error(id, chunk.offset, "\(count) records, at least \(minimum) needed (the last one ends the list)")
        }
        return (chunk, count)
    }

    private func error(_ id: String, _ offset: Int, _ problem: String) -> SoundFontError {
        SoundFontError(file: walker.file, chunk: "pdta/\(id)", offset: offset, problem: problem)
    }

    func read() throws(SoundFontError) -> (presets: [SoundFontPreset], instruments: [SoundFontInstrument], samples: [SoundFontSample]) {
        let samples = try sampleHeaders()
        let instrumentZones = try zones(bags: "ibag", generators: "igen", modulators: "imod", target: SoundFontGenerator.sampleID,
                                        targetCount: samples.count, targetName: "sample")
        let (instChunk, instCount) = try records("inst", size: 22, minimum: 2)
        let read = walker.reader("pdta/inst")
        var instruments: [SoundFontInstrument] = []
        let instrumentBags = try (0..<instCount).map { index throws(SoundFontError) in
            Int(try read.uint16(at: instChunk.offset + index * 22 + 20))
        }
        for index in 0..<instCount - 1 {
            let offset = instChunk.offset + index * 22
            let zones = try slice(instrumentZones, from: instrumentBags[index], to: instrumentBags[index + 1], "inst", offset)
            instruments.append(SoundFontInstrument(name: try read.name(at: offset, length: 20), zones: zones))
        }

        let presetZones = try zones(bags: "pbag", generators: "pgen", modulators: "pmod", target: SoundFontGenerator.instrument,
                                    targetCount: instruments.count, targetName: "instrument")
        let (phdr, presetCount) = try records("phdr", size: 38, minimum: 2)
        let readPresets = walker.reader("pdta/phdr")
        let presetBags = try (0..<presetCount).map { index throws(SoundFontError) in
            Int(try readPresets.uint16(at: phdr.offset + index * 38 + 24))
        }
        var presets: [SoundFontPreset] = []
        for index in 0..<presetCount - 1 {
            let offset = phdr.offset + index * 38
            let zones = try slice(presetZones, from: presetBags[index], to: presetBags[index + 1], "phdr", offset)
            presets.append(SoundFontPreset(
                name: try readPresets.name(at: offset, length: 20),
                program: Int(try readPresets.uint16(at: offset + 20)), bank: Int(try readPresets.uint16(at: offset + 22)),
                zones: zones))
        }
        return (presets, instruments, samples)
    }

    /// `zones[first..<end]`, when the bag indices go forward and stay inside the bag list.
    private func slice(_ zones: [SoundFontZone], from first: Int, to end: Int, _ id: String, _ offset: Int)
        throws(SoundFontError) -> [SoundFontZone]
    {
        guard first <= end, end <= zones.count else {
            throw error(id, offset, "bag indices \(first)…\(end) go backwards or past the \(zones.count) zones")
        }
        return Array(zones[first..<end])
    }

    /// Every zone of one level (presets or instruments), in bag order.
    private func zones(bags: String, generators: String, modulators: String, target: UInt16,
                       targetCount: Int, targetName: String) throws(SoundFontError) -> [SoundFontZone]
    {
        let (bagChunk, bagCount) = try records(bags, size: 4, minimum: 1)
        let (genChunk, genCount) = try records(generators, size: 4, minimum: 1)
        let (modChunk, modCount) = try records(modulators, size: 10, minimum: 1)
        let readBags = walker.reader("pdta/\(bags)"), readGens = walker.reader("pdta/\(generators)")
        let readMods = walker.reader("pdta/\(modulators)")
        var zones: [SoundFontZone] = []
        var previous = (generator: 0, modulator: 0)
        for index in 0..<bagCount {
            let offset = bagChunk.offset + index * 4
            let next = (generator: Int(try readBags.uint16(at: offset)), modulator: Int(try readBags.uint16(at: offset + 2)))
            guard next.generator >= previous.generator, next.generator <= genCount - 1,
                  next.modulator >= previous.modulator, next.modulator <= modCount - 1 else {
                throw error(bags, offset, "bag \(index) points to generator \(next.generator) and modulator \(next.modulator): "
                    + "backwards or past the \(genCount - 1) generators and \(modCount - 1) modulators")
            }
            if index > 0 {
                zones.append(try zone(generators: previous.generator..<next.generator, modulators: previous.modulator..<next.modulator,
                                      readGens, genChunk.offset, readMods, modChunk.offset,
                                      target: target, targetCount: targetCount, targetName: targetName, generatorsID: generators))
            }
            previous = next
        }
        return zones
    }

    private func zone(generators: Range<Int>, modulators: Range<Int>, _ readGens: ByteReader, _ genStart: Int,
                      _ readMods: ByteReader, _ modStart: Int, target: UInt16, targetCount: Int, targetName: String,
                      generatorsID: String) throws(SoundFontError) -> SoundFontZone
    {
        var zone = SoundFontZone(generators: [], modulators: [], target: nil)
        for index in generators {
            let offset = genStart + index * 4
            let generator = SoundFontGenerator(kind: try readGens.uint16(at: offset), amount: try readGens.uint16(at: offset + 2))
            if generator.kind == target {
                guard Int(generator.amount) < targetCount else {
                    throw error(generatorsID, offset, "generator \(index) names \(targetName) \(generator.amount) of \(targetCount)")
                }
                zone.target = Int(generator.amount)
            } else {
                zone.generators.append(generator)
            }
        }
        for index in modulators {
            let offset = modStart + index * 10
            zone.modulators.append(SoundFontModulator(
                source: try readMods.uint16(at: offset), destination: try readMods.uint16(at: offset + 2),
                amount: try readMods.int16(at: offset + 4), amountSource: try readMods.uint16(at: offset + 6),
                transform: try readMods.uint16(at: offset + 8)))
        }
        return zone
    }

    private func sampleHeaders() throws(SoundFontError) -> [SoundFontSample] {
        let (chunk, count) = try records("shdr", size: 46, minimum: 1)
        let read = walker.reader("pdta/shdr")
        var samples: [SoundFontSample] = []
        for index in 0..<count - 1 {
            let offset = chunk.offset + index * 46
            let start = Int(try read.uint32(at: offset + 20)), end = Int(try read.uint32(at: offset + 24))
            let type = try read.uint16(at: offset + 44)
            guard type & 0x8000 != 0 || (start <= end && end <= frameCount) else {
                throw error("shdr", offset, "sample \(index) spans frames \(start)…\(end), the sample data has \(frameCount)")
            }
            let loopStart = Int(try read.uint32(at: offset + 28)), loopEnd = Int(try read.uint32(at: offset + 32))
            samples.append(SoundFontSample(
                name: try read.name(at: offset, length: 20), start: start, end: end,
                loopStart: loopsAsRead ? loopStart : min(max(loopStart, start), end),
                loopEnd: loopsAsRead ? loopEnd : min(max(loopEnd, start), end),
                sampleRate: Int(try read.uint32(at: offset + 36)), originalPitch: Int(try read.uint8(at: offset + 40)),
                pitchCorrection: Int(Int8(bitPattern: try read.uint8(at: offset + 41))),
                link: Int(try read.uint16(at: offset + 42)), type: type))
        }
        return samples
    }
}
