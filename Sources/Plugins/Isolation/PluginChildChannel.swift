import Foundation
import Glibc

/// What an isolated plugin node asks its child on their control socket (never on the
/// render path: that is the shared region's), one request at a time, each answered by one
/// `PluginChildReply`.
/// - Thread: any (a plain value).
enum PluginChildRequest: Codable {
    /// Load the plugin and prepare it: the child's first request.
    case start(PluginChildStart)
    /// The plugin's own state (`LV2Node.ownState`), its files linked into `files`.
    case state(files: String?)
    /// Set a file property (`LV2Node.setFile`).
    case setFile(name: String, path: String)
    /// Save the sound as a preset (`LV2Node.savePreset`).
    case savePreset(label: String, values: [String: Float], directory: String)
}

/// How the child starts its plugin: which, for what format, with which state and values.
/// - Thread: any (a plain value).
struct PluginChildStart: Codable {
    var uri: String
    /// The plugin's bundle folder: the one bundle the child reads.
    var bundle: String
    var sampleRate: Double
    var maxFrames: Int
    var eventCapacity: Int
    /// The plugin's own state to restore (`NodeDescriptor.pluginState`, or its last read).
    var state: String?
    /// Every port's control value, by port index (the inputs as the node last had them).
    var controls: [Float]
    var synchronousWork: Bool
}

/// The child's answer: a failure's problem and fix, or what was asked.
/// - Thread: any (a plain value).
struct PluginChildReply: Codable {
    var problem: String?
    var fix: String?
    var text: String?
    var preset: [String]?
}

/// Length-prefixed JSON messages on a stream socket (a `socketpair` between the daemon and
/// the child): a 4-byte little-endian length, then the message.
/// - Thread: one thread at a time (the parent holds a lock around each request and reply).
struct PluginChildChannel {
    let descriptor: Int32
    /// The longest message either side accepts (a plugin's state is text; 16 MiB is a large one).
    static let maximumMessage = 16 << 20

    func send<Message: Encodable>(_ message: Message) -> Bool {
        guard let body = try? JSONEncoder().encode(message), body.count <= Self.maximumMessage else { return false }
        var length = UInt32(body.count).littleEndian
        let header = withUnsafeBytes(of: &length) { Data($0) }
        return write(header + body)
    }

    /// The next message, or nil when the other side closed, the wait timed out (`SO_RCVTIMEO`)
    /// or the message is malformed.
    func receive<Message: Decodable>(_ type: Message.Type) -> Message? {
        guard let header = read(4) else { return nil }
        let length = Int(header.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self)) })
        guard length <= Self.maximumMessage, let body = read(length) else { return nil }
        return try? JSONDecoder().decode(type, from: body)
    }

    /// Gives up a `receive` after `seconds` (the parent's bound on a child that does not answer).
    func setReceiveTimeout(seconds: Int) {
        var limit = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    private func write(_ data: Data) -> Bool {
        data.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                sent += count
            }
            return true
        }
    }

    private func read(_ length: Int) -> Data? {
        var data = Data(count: length)
        let complete = data.withUnsafeMutableBytes { bytes in
            var received = 0
            while received < length {
                let count = recv(descriptor, bytes.baseAddress! + received, length - received, 0)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                received += count
            }
            return true
        }
        return complete ? data : nil
    }
}
