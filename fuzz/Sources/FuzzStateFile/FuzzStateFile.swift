import FuzzSupport
import Hub

/// libFuzzer entry: bytes as the daemon's state file (`state.json`, which a user may edit
/// by hand). Reading it either gives a state that writes and reads back the same, or one
/// line naming the file (what the daemon logs before it keeps the file aside).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStateFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let state = try HubState(decoding: bytes, path: "state.json")
        let again = try HubState(decoding: state.encoded(), path: "state.json")
        require(again == state, "the state read back differs")
    } catch {
        require(!error.description.contains("\n"), "an error on several lines: \(error)")
        require(error.description.contains("state.json"), "an error that does not name the file: \(error)")
    }
    return 0
}
