import FuzzSupport
import SoundFont

/// libFuzzer entry: any bytes, read as a SoundFont, either fail with one line naming a
/// chunk and an offset inside the input, or give a font whose every zone leads to an
/// instrument and a sample whose frames (all read here) lie inside the sample data.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSoundFont(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let font: SoundFont
    do {
        font = try SoundFont(bytes: bytes, file: "fuzz.sf2")
    } catch {
        require(error.offset >= 0 && error.offset <= size, "error outside the input: \(error)")
        require(error.description.hasPrefix("fuzz.sf2: \(error.chunk) at byte "), "\(error)")
        require(!error.description.contains("\n"), "error on several lines: \(error)")
        return 0
    }
    var sum: Float = 0
    for preset in font.presets {
        for zone in preset.zones {
            guard let instrument = zone.target else { continue }
            require(instrument < font.instruments.count, "preset \(preset.name) names instrument \(instrument)")
            for instrumentZone in font.instruments[instrument].zones {
                guard let index = instrumentZone.target else { continue }
                require(index < font.samples.count, "instrument names sample \(index)")
                let sample = font.samples[index]
                if sample.isROM { continue }
                require(sample.start <= sample.end && sample.end <= font.sampleData.frameCount, "sample \(sample.name) outside the data")
                require((sample.start...sample.end).contains(sample.loopStart) && (sample.start...sample.end).contains(sample.loopEnd),
                        "loop outside the sample")
                for frame in sample.start..<sample.end { sum += font.sampleData.frame(at: frame) }
            }
        }
    }
    require(sum.isFinite, "sample frames are not finite")
    return 0
}
