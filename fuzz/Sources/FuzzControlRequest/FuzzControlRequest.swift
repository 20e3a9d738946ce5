import FuzzSupport
@testable import Control

/// libFuzzer entry: bytes from any local process, as the control server reads them.
/// Cutting the stream into lines in pieces (sizes taken from the first byte) gives the
/// same lines as cutting it whole; every line decodes to a request or a `ControlError`
/// without trapping, and its response is one JSON line; a decoded request written back
/// out decodes to the same request and id.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzControlRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let whole = lines(of: bytes, step: bytes.count)
    let step = Int(bytes.first ?? 1) % 13 + 1
    require(lines(of: bytes, step: step) == whole, "feeding in pieces of \(step) changed the lines")

    for case .line(let line) in whole {
        let (id, decoded) = ControlRequest.decode(line: line)
        let response = try! JSONLine.encode(ControlResponse(id: id, outcome: decoded.map { _ in .done }))
        require(response.firstIndex(of: UInt8(ascii: "\n")) == response.count - 1, "a response is not one line")
        guard case .success(let request) = decoded else { continue }
        let again = ControlRequest.decode(line: try! request.encodedLine(id: id ?? 0))
        require(again.id == (id ?? 0), "the id changed on the way back")
        require(try! again.request.get() == request, "the request changed on the way back")
    }
    return 0
}

/// The lines a server connection cuts `bytes` into when they arrive `step` at a time.
private func lines(of bytes: [UInt8], step: Int) -> [LineSplitter.Item] {
    var splitter = LineSplitter(maxLength: 512)
    var items: [LineSplitter.Item] = []
    var start = 0
    while start < bytes.count {
        let end = min(bytes.count, start + max(step, 1))
        splitter.append(bytes[start..<end])
        while let item = splitter.next() { items.append(item) }
        start = end
    }
    if let last = splitter.finish() { items.append(last) }
    return items
}
