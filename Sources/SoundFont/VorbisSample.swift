import CVorbis

/// One SF3 sample: an Ogg Vorbis stream decoded with libvorbisfile into 16-bit frames
/// (the first channel, were a stream to hold more than one).
///
/// - Thread: any but render (it decodes for a while and allocates).
enum VorbisSample {
    /// Why a stream did not decode: libvorbisfile's error code, said in words.
    struct Failure: Error {
        var problem: String
    }

    /// Appends the frames of the stream in `bytes` to `frames`, refusing to grow `frames`
    /// beyond `limit` (a small hostile stream can claim hours of audio).
    static func decode(_ bytes: UnsafeRawBufferPointer, appendingTo frames: FrameBuffer, limit: Int) throws(Failure) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { throw Failure(problem: "it is empty") }
        var memory = midihub_vorbis_memory(bytes: base.assumingMemoryBound(to: UInt8.self), count: bytes.count, position: 0)
        let file = UnsafeMutablePointer<OggVorbis_File>.allocate(capacity: 1)
        defer { file.deallocate() }
        let opened = midihub_vorbis_open(file, &memory)
        guard opened == 0 else { throw Failure(problem: Self.describe(opened)) }
        defer { ov_clear(file) }
        let channels = Int(ov_info(file, -1)?.pointee.channels ?? 1)
        guard channels >= 1 else { throw Failure(problem: "the stream has no channels") }
        let buffer = UnsafeMutablePointer<Int16>.allocate(capacity: 4096)
        defer { buffer.deallocate() }
        var section: Int32 = 0
        while true {
            // Little-endian, 16-bit, signed: the samples as SF2 stores them.
            let read = ov_read(file, UnsafeMutableRawPointer(buffer).assumingMemoryBound(to: CChar.self), 8192, 0, 2, 1, &section)
            if read == 0 { return }
            if read == OV_HOLE { continue }  // a gap in the pages: decoding goes on after it
            guard read > 0 else { throw Failure(problem: Self.describe(Int32(read))) }
            let count = Int(read) / 2 / channels
            guard frames.count + count <= limit else {
                throw Failure(problem: "the samples decode to more than \(limit) frames")
            }
            frames.append(buffer, count: count, stride: channels)
        }
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case OV_ENOTVORBIS: "it is not Ogg Vorbis data"
        case OV_EBADHEADER: "its Vorbis header is damaged"
        case OV_EVERSION: "its Vorbis version is unknown"
        case OV_EBADLINK: "its data is damaged"
        default: "libvorbisfile could not decode it (error \(code))"
        }
    }
}
