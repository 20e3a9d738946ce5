import FuzzSupport
import Synth

/// libFuzzer entry: any text, read as a preset file, either gives sections that each
/// sound for at least one program or note in MIDI's range, or fails with one line that
/// names the file and a line of the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPreset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        for entry in try PresetParser.parse(text, file: "fuzz.preset") {
            require(!entry.numbers.isEmpty && entry.numbers.allSatisfy { (0...127).contains($0) },
                         "section '\(entry.name)' has numbers \(entry.numbers)")
        }
    } catch {
        let lineCount = text.split(separator: "\n", omittingEmptySubsequences: false).count
        require(error.line >= 0 && error.line <= lineCount, "error outside the text: \(error)")
        require(error.description.hasPrefix("fuzz.preset"), "\(error)")
        require(!error.description.contains("\n"), "error on several lines: \(error)")
    }
    return 0
}
