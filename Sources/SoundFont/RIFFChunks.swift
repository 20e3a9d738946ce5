/// One RIFF chunk: its id, and where its data lies in the file.
struct RIFFChunk {
    var id: String
    /// The data's first byte, from the file's start.
    var offset: Int
    var size: Int
    var range: Range<Int> { offset..<offset + size }
}

/// Walks RIFF chunks inside a byte range of the file, checking every size against the
/// range that holds it.
///
/// - Thread: any.
struct RIFFWalker {
    let file: String
    let bytes: UnsafeRawBufferPointer

    func reader(_ chunk: String) -> ByteReader {
        ByteReader(bytes: bytes, fileOffset: 0) { offset, problem in
            SoundFontError(file: file, chunk: chunk, offset: offset, problem: "truncated: " + problem)
        }
    }

    /// The chunks one after the other in `range` (`path` names the container in errors).
    func chunks(in range: Range<Int>, path: String) throws(SoundFontError) -> [RIFFChunk] {
        let read = reader(path)
        var chunks: [RIFFChunk] = []
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let id = try read.fourCC(at: offset)
            let size = Int(try read.uint32(at: offset + 4))
            let dataStart = offset + 8
            guard size <= range.upperBound - dataStart else {
                throw SoundFontError(file: file, chunk: path.isEmpty ? id : "\(path)/\(id)", offset: offset,
                                     problem: "chunk size \(size) runs past the end of its container at byte \(range.upperBound)")
            }
            chunks.append(RIFFChunk(id: id, offset: dataStart, size: size))
            offset = dataStart + size
            // Chunks are padded to an even size, but some writers leave the pad byte out
            // (MuseScore's SF3 fonts, after an odd `sdta`): then only the unpadded place
            // holds a chunk header that fits.
            if size & 1 == 1, fitsChunk(at: offset + 1, in: range) || !fitsChunk(at: offset, in: range) {
                offset += 1
            }
        }
        return chunks
    }

    /// Whether a chunk header (an id of letters, digits or spaces, and a size that fits) is at `offset`.
    private func fitsChunk(at offset: Int, in range: Range<Int>) -> Bool {
        guard offset + 8 <= range.upperBound else { return false }
        let letters = (0..<4).allSatisfy { index in
            let byte = bytes[offset + index]
            return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x20
        }
        let size = Int(bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self).littleEndian)
        return letters && size <= range.upperBound - offset - 8
    }

    /// The sub-chunks of a `LIST` chunk whose type is `type`, e.g. `pdta`.
    func list(_ type: String, in chunks: [RIFFChunk]) throws(SoundFontError) -> [RIFFChunk] {
        let read = reader("LIST")
        for chunk in chunks where chunk.id == "LIST" && chunk.size >= 4 {
            if try read.fourCC(at: chunk.offset) == type {
                return try self.chunks(in: chunk.offset + 4..<chunk.offset + chunk.size, path: type)
            }
        }
        throw SoundFontError(file: file, chunk: "LIST \(type)", offset: chunks.first.map { $0.offset - 8 } ?? 12,
                             problem: "the file has no '\(type)' list")
    }
}
