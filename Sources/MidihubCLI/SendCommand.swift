import ALSA
import ArgumentParser
import MIDICore

/// `midihub send PORT HEX...`: raw MIDI bytes, parsed into messages, sent at once.
struct SendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send raw MIDI bytes, written in hex, to a port.",
        discussion: """
            Bytes are two hex digits each, separated by spaces or joined ("903C64"). They \
            are parsed as a MIDI byte stream (running status allowed) and every message \
            goes to the port through a connection (like aplaymidi). Incomplete or stray bytes are an error and nothing \
            is sent.

            Examples:
              midihub send 20:0 90 3c 64 80 3c 00      # note on, note off
              midihub send 'Midi Through' 903C64 3E64   # running status
              midihub send fluid F0 7E 7F 09 01 F7      # GM System On (SysEx)
            """
    )

    @Argument(help: "The destination port: 20:0, a client or port name, or a prefix.", completion: NameCompletion.ports(.destination))
    var port: String

    @Argument(help: "MIDI bytes in hex.")
    var hex: [String]

    func run() throws {
        let messages = try Self.messages(fromHex: hex)
        let session = try SequencerSession()
        let destination = try session.resolve(port, as: .destination)
        let ownPort = try session.makeSendingPort(name: "send", connectedTo: [destination.address])
        for message in messages {
            try session.client.send(message, from: ownPort, to: destination.address)
        }
    }

    /// Parses hex words into bytes and the bytes into messages.
    /// - Throws: `CLIError` (exit 2) for bad hex, stray bytes or an unfinished message.
    static func messages(fromHex words: [String]) throws -> [MIDIMessage] {
        var bytes: [UInt8] = []
        for word in words.flatMap({ $0.split(whereSeparator: { $0 == " " || $0 == "," }) }) {
            let digits = Array(word.hasPrefix("0x") || word.hasPrefix("0X") ? word.dropFirst(2) : word[...])
            guard !digits.isEmpty, digits.count % 2 == 0 else { throw badHex(String(word)) }
            for index in stride(from: 0, to: digits.count, by: 2) {
                guard let byte = UInt8(String(digits[index...index + 1]), radix: 16) else { throw badHex(String(word)) }
                bytes.append(byte)
            }
        }
        guard !bytes.isEmpty else {
            throw CLIError("no bytes to send", fix: "give MIDI bytes in hex, e.g. 90 3c 64", exitCode: CLIError.badInput)
        }
        var parser = MIDIParser()
        let messages = parser.parse(bytes)
        // F4 is an undefined status: it cuts off an unfinished message (counted as
        // truncated) and is itself counted as skipped, so exactly one skip and no
        // truncation means the input ended on a message boundary.
        _ = parser.parse([0xF4])
        guard parser.skippedBytes == 1, parser.truncatedMessages == 0 else {
            throw CLIError("'\(words.joined(separator: " "))' is not a sequence of complete MIDI messages "
                           + "(\(parser.skippedBytes - 1) stray bytes, \(parser.truncatedMessages) unfinished messages)",
                           fix: "start with a status byte (80-FF) and give each message all its data bytes",
                           exitCode: CLIError.badInput)
        }
        return messages
    }

    private static func badHex(_ word: String) -> CLIError {
        CLIError("'\(word)' is not hex bytes", fix: "write each byte as two hex digits, e.g. 90 3c 64",
                 exitCode: CLIError.badInput)
    }
}
