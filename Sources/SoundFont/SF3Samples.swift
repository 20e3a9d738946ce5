/// An SF3 font's samples made playable: each Vorbis-compressed sample (type bit 0x10, its
/// `start`…`end` a byte range of `smpl`, its loop counted from its own first frame) decoded
/// with libvorbisfile, an uncompressed one copied, all into one buffer of 16-bit frames
/// with 46 silent frames after each, as SF2's `smpl` has; the headers then point into it.
/// This is how FluidSynth and MuseScore read SF3.
///
/// - Thread: any but render (decoding a font takes a while).
enum SF3Samples {
    /// The most frames the samples may decode to (512 MiB): far above any GM font's, and a
    /// bound for a small hostile file that claims hours of audio.
    static let frameLimit = 256 << 20
    static let silence = 46
    static let vorbis: UInt16 = 0x10

    /// The decoded frames and the headers rewritten to index them. `smpl` is the chunk's
    /// data, at byte `offset` of the file (for errors).
    static func decode(_ headers: [SoundFontSample], smpl: UnsafeRawBufferPointer, at offset: Int,
                       file: String) throws(SoundFontError) -> (samples: [SoundFontSample], frames: FrameBuffer) {
        let frames = FrameBuffer()
        var samples: [SoundFontSample] = []
        for (index, header) in headers.enumerated() {
            var sample = header
            guard !header.isROM else { samples.append(sample); continue }
            let first = frames.count
            let loopOffset: Int
            if header.type & vorbis != 0 {
                do {
                    try VorbisSample.decode(UnsafeRawBufferPointer(rebasing: smpl[header.start..<header.end]),
                                            appendingTo: frames, limit: frameLimit)
                } catch {
                    throw SoundFontError(file: file, chunk: "sdta/smpl", offset: offset + header.start,
                                         problem: "sample \(index) ('\(header.name)'): \(error.problem)")
                }
                loopOffset = first
            } else {
                guard header.end <= smpl.count / 2, frames.count + header.end - header.start <= frameLimit else {
                    throw SoundFontError(file: file, chunk: "sdta/smpl", offset: offset,
                                         problem: "sample \(index) ('\(header.name)') spans frames \(header.start)…\(header.end), the sample data has \(smpl.count / 2)")
                }
                frames.append(words: smpl.baseAddress! + 2 * header.start, count: header.end - header.start)
                loopOffset = first - header.start
            }
            sample.start = first
            sample.end = frames.count
            sample.loopStart = min(max(header.loopStart + loopOffset, sample.start), sample.end)
            sample.loopEnd = min(max(header.loopEnd + loopOffset, sample.start), sample.end)
            frames.appendSilence(silence)
            samples.append(sample)
        }
        return (samples, frames)
    }
}
