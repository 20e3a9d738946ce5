import FuzzSupport
import MIDICore

/// libFuzzer entry: any text either fails with a one-line `SequenceTextError` at a real
/// position or reads into a file that renders and reads back unchanged.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSequenceText(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let file: MIDIFile
    do {
        file = try SequenceText.parse(text)
    } catch {
        require(error.line >= 1 && error.column >= 1, "error without a position: \(error)")
        require(!error.description.contains("\n"), "error on several lines: \(error)")
        return 0
    }
    let rendered = SequenceText.render(file)
    do {
        let reread = try SequenceText.parse(rendered)
        require(reread == file, "parse → render → parse changed the file:\n\(rendered)")
    } catch {
        fatalError("the rendered text does not parse: \(error)\n\(rendered)")
    }
    return 0
}
