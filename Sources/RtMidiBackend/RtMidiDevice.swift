internal import CRtMidi
internal import CRtMidiSupport

/// One RtMidi object on the JACK API (an `RtMidiIn` or `RtMidiOut`, each its own JACK
/// client) with its errors routed into an `RtMidiErrorLog`: every call either succeeds
/// or throws `JackMIDIError.rtMidi` with RtMidi's message. Nothing reaches stderr.
///
/// - Thread: any, one caller at a time (the owner serialises access).
final class RtMidiDevice {
    enum Kind {
        case input(queueSize: UInt32)
        case output
    }

    let kind: Kind
    let pointer: RtMidiPtr
    private let errorLog = RtMidiErrorLog()
    private let errorRouting: UnsafeMutableRawPointer
    private var isPortOpen = false

    /// Creates the RtMidi object and its JACK client named `clientName` (JACK appends
    /// `-01`, `-02`… when the name is taken).
    /// - Throws: `JackMIDIError.rtMidi` when RtMidi cannot create it.
    init(_ kind: Kind, clientName: String) throws(JackMIDIError) {
        switch kind {
        case .input(let queueSize):
            pointer = rtmidi_in_create(RTMIDI_API_UNIX_JACK, clientName, queueSize)
        case .output:
            pointer = rtmidi_out_create(RTMIDI_API_UNIX_JACK, clientName)
        }
        self.kind = kind
        // Before the routing exists RtMidi's `msg` points at a destroyed exception
        // (RtMidi 5's C API), so only `ok` can be trusted here.
        guard pointer.pointee.ok, pointer.pointee.ptr != nil else {
            Self.free(pointer, kind)
            throw .rtMidi(operation: "creating JACK client '\(clientName)'", message: "RtMidi could not create it")
        }
        let log = Unmanaged.passRetained(errorLog)
        errorRouting = midihub_rtmidi_route_errors(UnsafeMutableRawPointer(pointer), { type, message, context in
            let log = Unmanaged<RtMidiErrorLog>.fromOpaque(context!).takeUnretainedValue()
            log.record(type: type, message: message.map { String(cString: $0) } ?? "unknown error")
        }, log.toOpaque())
    }

    deinit {
        close()
        Self.free(pointer, kind)
        midihub_rtmidi_free_error_routing(errorRouting)
        Unmanaged.passUnretained(errorLog).release()
    }

    /// Throws RtMidi's messages recorded since the last check, as one error for `operation`.
    func check(_ operation: @autoclosure () -> String) throws(JackMIDIError) {
        let messages = errorLog.take()
        guard messages.isEmpty else {
            throw .rtMidi(operation: operation(), message: messages.joined(separator: "; "))
        }
    }

    /// Full JACK names (`client:port`) of the ports this kind can open: sources for
    /// an input, destinations for an output. A port that vanishes while listing is left out.
    func portNames() throws(JackMIDIError) -> [String] {
        let count = rtmidi_get_port_count(pointer)
        try check("listing JACK MIDI ports")
        var names: [String] = []
        for index in 0..<count {
            if let name = portName(at: index) { names.append(name) }
        }
        _ = errorLog.take()  // warnings about ports gone since the count
        return names
    }

    private func portName(at index: UInt32) -> String? {
        var length: Int32 = 0
        guard rtmidi_get_port_name(pointer, index, nil, &length) == 0, length > 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(length))
        guard rtmidi_get_port_name(pointer, index, &buffer, &length) > 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Registers a port named `portName` that other JACK clients connect to.
    func openVirtualPort(_ portName: String) throws(JackMIDIError) {
        rtmidi_open_virtual_port(pointer, portName)
        try check("opening virtual JACK port '\(portName)'")
        isPortOpen = true
    }

    /// Registers a port named `portName` connected to the `index`th port of `portNames()`.
    func openPort(index: Int, portName: String, target: String) throws(JackMIDIError) {
        rtmidi_open_port(pointer, UInt32(index), portName)
        try check("connecting JACK port '\(portName)' to \(target)")
        isPortOpen = true
    }

    /// Sends every input message RtMidi receives, SysEx and timing included, to `inbox`.
    /// Call before opening the port. `inbox` must outlive this device: RtMidi holds it
    /// unretained, and only `deinit` (closing the JACK client) ends the callbacks.
    func deliverInput(to inbox: JackMIDIInbox) {
        rtmidi_in_ignore_types(pointer, false, false, false)
        rtmidi_in_set_callback(pointer, { secondsSincePrevious, bytes, count, context in
            guard let bytes, let context else { return }
            let inbox = Unmanaged<JackMIDIInbox>.fromOpaque(context).takeUnretainedValue()
            inbox.receive(UnsafeBufferPointer(start: bytes, count: count), secondsSincePrevious: secondsSincePrevious)
        }, Unmanaged.passUnretained(inbox).toOpaque())
    }

    /// Writes one complete MIDI message (wire bytes, SysEx with F0…F7).
    func send(_ bytes: [UInt8], describing port: String) throws(JackMIDIError) {
        let status = bytes.withUnsafeBufferPointer { rtmidi_out_send_message(pointer, $0.baseAddress, Int32($0.count)) }
        try check("sending \(bytes.count) bytes to \(port)")
        if status != 0 {
            throw .rtMidi(operation: "sending \(bytes.count) bytes to \(port)", message: "RtMidi refused the message")
        }
    }

    /// Unregisters the port; the JACK client stays until deinit. Idempotent.
    func close() {
        guard isPortOpen else { return }
        isPortOpen = false
        rtmidi_close_port(pointer)
        _ = errorLog.take()
    }

    private static func free(_ pointer: RtMidiPtr, _ kind: Kind) {
        switch kind {
        case .input: rtmidi_in_free(pointer)
        case .output: rtmidi_out_free(pointer)
        }
    }
}
