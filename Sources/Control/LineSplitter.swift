/// Cuts a byte stream into lines at `\n` (a `\r` before it is dropped; empty lines
/// are skipped). A line longer than `maxLength` is reported as `tooLong` as soon as
/// that many bytes arrive without a newline, so memory stays bounded; the rest of that
/// line is dropped as it arrives. Feeding the bytes in any pieces gives the same items.
///
/// - Thread: one owner at a time.
struct LineSplitter {
    enum Item: Equatable {
        case line([UInt8])
        case tooLong
    }

    let maxLength: Int
    private var buffer: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// How far `buffer` has been searched for a newline.
    private var scanned = 0
    /// True after a `tooLong` reported before the line's newline arrived: the bytes up to
    /// that newline are dropped.
    private var droppingRestOfLine = false

    init(maxLength: Int) {
        self.maxLength = maxLength
    }

    mutating func append(_ bytes: ArraySlice<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, `tooLong`, or `nil` when more bytes are needed.
    mutating func next() -> Item? {
        while let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
            // The limit counts a `\r` before the newline too, as the bytes arrive.
            let tooLong = newline - start > maxLength
            let line = take(upTo: newline)
            if droppingRestOfLine {
                droppingRestOfLine = false
                continue
            }
            if tooLong { return .tooLong }
            if !line.isEmpty { return .line(line) }
        }
        scanned = buffer.count
        if droppingRestOfLine {
            discardAll()
            return nil
        }
        if buffer.count - start > maxLength {
            discardAll()
            droppingRestOfLine = true
            return .tooLong
        }
        compact()
        return nil
    }

    /// What is left after the stream ended without a final newline.
    mutating func finish() -> Item? {
        let tooLong = buffer.count - start > maxLength
        let rest = take(upTo: buffer.count)
        if droppingRestOfLine {
            droppingRestOfLine = false
            return nil
        }
        if tooLong { return .tooLong }
        return rest.isEmpty ? nil : .line(rest)
    }

    private mutating func take(upTo end: Int) -> [UInt8] {
        var lineEnd = end
        if lineEnd > start, buffer[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
        let line = Array(buffer[start..<lineEnd])
        start = min(end + 1, buffer.count)
        scanned = start
        return line
    }

    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeFirst(start)
        scanned -= start
        start = 0
    }

    private mutating func discardAll() {
        buffer.removeAll(keepingCapacity: false)
        start = 0
        scanned = 0
    }
}
