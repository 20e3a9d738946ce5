import FuzzSupport
import Hub
import SetupViews

/// libFuzzer entry: any text, read as a patch against the daemon's real node types,
/// either loads or fails with one line that starts `FILE:LINE:COLUMN:` inside the text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        _ = try Patch.parse(yaml: text, file: "fuzz.yaml", registry: NodeTypes.registry)
    } catch {
        // YAML also breaks lines at a lone `\r`, NEL, LS and PS; `isNewline` counts those and a few more.
        let lineCount = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).count
        require(error.line >= 1 && error.line <= lineCount + 1 && error.column >= 1,
                     "error outside the text: \(error)")
        require(error.description.hasPrefix("fuzz.yaml:\(error.line):\(error.column): "), "\(error)")
        require(!error.description.contains("\n"), "error on several lines: \(error)")
    }
    return 0
}
