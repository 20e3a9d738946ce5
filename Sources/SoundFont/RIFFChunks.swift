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
            offset = dataStart + size + (size & 1)  // chunks are padded to an even size
        }
        return chunks
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
