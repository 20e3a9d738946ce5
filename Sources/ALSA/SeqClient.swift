internal import CALSA
import Glibc

/// An open ALSA sequencer client (`snd_seq_t`): the handle every sequencer
/// operation goes through. Closing happens when the last reference goes away.
///
/// Not thread-safe: one thread owns a client and makes every call on it.
/// - Thread: the owning thread (any one thread at a time).
public final class SeqClient {
    let handle: OpaquePointer
    /// This client's number (128 and up for applications).
    public let clientID: UInt8
    /// The client's name, as others see it in `aconnect -l`.
    public let name: String
    /// SysEx pieces received but not yet complete, per source.
    var sysExAssembler = SysExAssembler()
    /// Times the kernel reported lost input (`-ENOSPC`: this client read too slowly).
    public internal(set) var inputOverruns = 0
    /// The descriptors of the last `poll` (the sequencer's, then the watched ones), kept so a
    /// wait allocates nothing.
    var pollDescriptors: [pollfd] = []

    /// Opens the `default` sequencer for input and output and names the client.
    ///
    /// - Parameter blocking: `false` (the default) makes output and input calls
    ///   return at once when they would wait; use `waitForInput`/`waitUntilWritable`.
    /// - Throws: `ALSAError`; a missing or forbidden `/dev/snd/seq` gives one whose
    ///   `description` names the fix.
    /// - Thread: any; the new client belongs to the calling thread.
    public init(name: String, blocking: Bool = false) throws(ALSAError) {
        midihub_silence_alsa_messages()
        var seq: OpaquePointer?
        try check("snd_seq_open", snd_seq_open(&seq, "default", SND_SEQ_OPEN_DUPLEX, blocking ? 0 : SND_SEQ_NONBLOCK))
        guard let seq else { throw ALSAError(function: "snd_seq_open", code: -ENOMEM) }
        do {
            try check("snd_seq_set_client_name", snd_seq_set_client_name(seq, name))
            let id = try check("snd_seq_client_id", snd_seq_client_id(seq))
            self.clientID = UInt8(truncatingIfNeeded: id)
        } catch {
            snd_seq_close(seq)
            throw error
        }
        self.handle = seq
        self.name = name
    }

    deinit {
        snd_seq_close(handle)
    }

    /// Switches between blocking and non-blocking calls.
    /// - Thread: the owning thread.
    public func setBlocking(_ blocking: Bool) throws(ALSAError) {
        try check("snd_seq_nonblock", snd_seq_nonblock(handle, blocking ? 0 : 1))
    }

    /// Creates a port on this client.
    ///
    /// - Parameters:
    ///   - capabilities: `.source` to let others read from it, `.destination` to
    ///     let others write to it, or both.
    ///   - timestampQueue: when given, the kernel stamps every event delivered to
    ///     this port with the queue's real time at arrival (`SeqTime.realTime`).
    /// - Thread: the owning thread.
    public func createPort(name: String, capabilities: SeqPort.Capabilities,
                           types: SeqPort.Types = .midiApplication,
                           timestampQueue: SeqQueue? = nil) throws(ALSAError) -> SeqPort {
        try withPortInfo { info throws(ALSAError) in
            snd_seq_port_info_set_name(info, name)
            snd_seq_port_info_set_capability(info, capabilities.rawValue)
            snd_seq_port_info_set_type(info, types.rawValue)
            if let timestampQueue {
                snd_seq_port_info_set_timestamping(info, 1)
                snd_seq_port_info_set_timestamp_real(info, 1)
                snd_seq_port_info_set_timestamp_queue(info, timestampQueue.id)
            }
            try check("snd_seq_create_port", snd_seq_create_port(handle, info))
            let port = UInt8(truncatingIfNeeded: snd_seq_port_info_get_port(info))
            return SeqPort(address: SeqAddress(client: clientID, port: port), name: name)
        }
    }

    /// Deletes a port this client created.
    /// - Thread: the owning thread.
    public func deletePort(_ port: SeqPort) throws(ALSAError) {
        try check("snd_seq_delete_port", snd_seq_delete_port(handle, Int32(port.address.port)))
    }
}

// MARK: - info object lifetimes (the `_alloca` macros are not importable)

func withPortInfo<T>(_ body: (OpaquePointer) throws(ALSAError) -> T) throws(ALSAError) -> T {
    var info: OpaquePointer?
    try check("snd_seq_port_info_malloc", snd_seq_port_info_malloc(&info))
    defer { snd_seq_port_info_free(info) }
    return try body(info!)
}

func withClientInfo<T>(_ body: (OpaquePointer) throws(ALSAError) -> T) throws(ALSAError) -> T {
    var info: OpaquePointer?
    try check("snd_seq_client_info_malloc", snd_seq_client_info_malloc(&info))
    defer { snd_seq_client_info_free(info) }
    return try body(info!)
}

func withQuerySubscribe<T>(_ body: (OpaquePointer) throws(ALSAError) -> T) throws(ALSAError) -> T {
    var info: OpaquePointer?
    try check("snd_seq_query_subscribe_malloc", snd_seq_query_subscribe_malloc(&info))
    defer { snd_seq_query_subscribe_free(info) }
    return try body(info!)
}

func withPortSubscribe<T>(_ body: (OpaquePointer) throws(ALSAError) -> T) throws(ALSAError) -> T {
    var info: OpaquePointer?
    try check("snd_seq_port_subscribe_malloc", snd_seq_port_subscribe_malloc(&info))
    defer { snd_seq_port_subscribe_free(info) }
    return try body(info!)
}

extension SeqClient {
    /// The most events the kernel lets one client's input FIFO or output pool hold.
    public static let maximumPoolSize = 2000

    /// Sets how many events the kernel buffers for this client: `input` arrived and not yet
    /// read (the default, 200, overflows within 2 ms at 100,000 events/s), `output` written
    /// and not yet delivered (default 500). At most `maximumPoolSize` each. alsa-lib's read
    /// buffer is sized to `input` events too, so one `read` can empty the kernel's FIFO
    /// (events waiting in the read buffer cannot overflow). Call it before reading.
    /// - Throws: `ALSAError` when the kernel refuses the size.
    /// - Thread: the owning thread.
    public func setPoolSizes(input: Int, output: Int) throws(ALSAError) {
        try check("snd_seq_set_client_pool_input", snd_seq_set_client_pool_input(handle, input))
        try check("snd_seq_set_client_pool_output", snd_seq_set_client_pool_output(handle, output))
        try check("snd_seq_set_input_buffer_size",
                  snd_seq_set_input_buffer_size(handle, input * MemoryLayout<snd_seq_event_t>.size))
    }
}
