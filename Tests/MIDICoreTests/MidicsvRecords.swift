import Foundation
import MIDICore
import TestSupport

/// The peer for the cross-check: runs `midicsv` and renders midihub's reading of a
/// file as the same CSV records, so the two can be compared line by line.
enum Midicsv {
    /// `midicsv` found on PATH, or nil.
    static var executable: URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("midicsv") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// midicsv's records for `file`, one per line (text normalized, see `normalizingText`).
    static func records(of file: URL, using midicsv: URL) throws -> [String] {
        // Into a file rather than a pipe: reading a pipe to its end would wait as long as
        // midicsv runs, and the wait for its exit has a deadline.
        let outputPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("midihub-midicsv-\(UUID().uuidString).csv").path
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: outputPath])
        }
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let process = Process()
        process.executableURL = midicsv
        process.arguments = [file.path]
        process.standardOutput = output
        try process.run()
        try output.close()
        try waitForExit(of: process, message: "midicsv \(file.lastPathComponent) did not finish")
        let data = try Data(contentsOf: URL(fileURLWithPath: outputPath))
        return data.split(separator: UInt8(ascii: "\n")).map { normalizingText(Array($0)) }
    }

    /// A midicsv line with its quoted text (if any) decoded as midihub decodes text
    /// (UTF-8 when valid, else ISO-8859-1) and quoted again from UTF-8, so text
    /// records compare by meaning whatever the file's encoding.
    private static func normalizingText(_ line: [UInt8]) -> String {
        let quote = UInt8(ascii: "\"")
        guard let open = line.firstIndex(of: quote), let close = line.lastIndex(of: quote), open < close else {
            return String(decoding: line, as: UTF8.self)
        }
        var bytes: [UInt8] = []
        var index = open + 1
        while index < close {
            if line[index] == quote || (line[index] == UInt8(ascii: "\\") && line[index + 1] == UInt8(ascii: "\\")) {
                bytes.append(line[index])
                index += 2
            } else if line[index] == UInt8(ascii: "\\") {
                bytes.append(UInt8(String(decoding: line[index + 1...index + 3], as: UTF8.self), radix: 8) ?? 0)
                index += 4
            } else {
                bytes.append(line[index])
                index += 1
            }
        }
        let text = String(validating: bytes, as: UTF8.self) ?? String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        return String(decoding: line[..<open], as: UTF8.self) + quoted(text) + String(decoding: line[(close + 1)...], as: UTF8.self)
    }

    /// midihub's reading of a file, rendered as midicsv renders it (channels 0-based,
    /// tracks 1-based, note-on velocity 0 kept as Note_on_c).
    static func records(of file: MIDIFile) -> [String] {
        var lines = ["0, 0, Header, \(file.format), \(file.tracks.count), \(division(file.division))"]
        for (index, track) in file.tracks.enumerated() {
            let number = index + 1
            lines.append("\(number), 0, Start_track")
            for event in track.events {
                lines.append("\(number), \(event.tick), \(record(event.kind))")
            }
            lines.append("\(number), \(track.endTick), End_track")
        }
        lines.append("0, 0, End_of_file")
        return lines
    }

    private static func division(_ division: MIDIFile.Division) -> Int {
        switch division {
        case .ticksPerQuarter(let ticks): return Int(ticks)
        case .smpte(let fps, let tpf): return -256 * Int(fps) + Int(tpf)
        }
    }

    private static func record(_ kind: TrackEvent.Kind) -> String {
        switch kind {
        case .midi(let message): return channelRecord(message)
        case .sysEx(let data): return "System_exclusive, " + bytes(data)
        case .sysExEscape(let data): return "System_exclusive_packet, " + bytes(data)
        case .meta(let meta): return metaRecord(meta)
        }
    }

    private static func channelRecord(_ message: MIDIMessage) -> String {
        switch message {
        case .noteOn(let c, let n, let v): return "Note_on_c, \(c), \(n), \(v)"
        case .noteOff(let c, let n, let v): return "Note_off_c, \(c), \(n), \(v)"
        case .polyPressure(let c, let n, let p): return "Poly_aftertouch_c, \(c), \(n), \(p)"
        case .controlChange(let c, let n, let v): return "Control_c, \(c), \(n), \(v)"
        case .programChange(let c, let p): return "Program_c, \(c), \(p)"
        case .channelPressure(let c, let p): return "Channel_aftertouch_c, \(c), \(p)"
        case .pitchBend(let c, let v): return "Pitch_bend_c, \(c), \(v)"
        default: return "not a channel message: \(message)"
        }
    }

    private static func metaRecord(_ meta: MetaEvent) -> String {
        switch meta {
        case .sequenceNumber(let n): return "Sequence_number, \(n)"
        case .text(let t): return "Text_t, " + quoted(t)
        case .copyright(let t): return "Copyright_t, " + quoted(t)
        case .trackName(let t): return "Title_t, " + quoted(t)
        case .instrumentName(let t): return "Instrument_name_t, " + quoted(t)
        case .lyric(let t): return "Lyric_t, " + quoted(t)
        case .marker(let t): return "Marker_t, " + quoted(t)
        case .cuePoint(let t): return "Cue_point_t, " + quoted(t)
        // This midicsv version has no names for program (08) and device (09) names.
        case .programName(let t): return "Unknown_meta_event, 8, " + bytes(Array(t.utf8))
        case .deviceName(let t): return "Unknown_meta_event, 9, " + bytes(Array(t.utf8))
        case .channelPrefix(let c): return "Channel_prefix, \(c)"
        case .port(let p): return "MIDI_port, \(p)"
        case .tempo(let micros): return "Tempo, \(micros)"
        case .smpteOffset(let h, let m, let s, let f, let sf): return "SMPTE_offset, \(h), \(m), \(s), \(f), \(sf)"
        case .timeSignature(let n, let d, let c, let q): return "Time_signature, \(n), \(d), \(c), \(q)"
        case .keySignature(let sharps, let minor): return "Key_signature, \(sharps), \"\(minor ? "minor" : "major")\""
        case .sequencerSpecific(let data): return "Sequencer_specific, " + bytes(data)
        case .unknown(let type, let data): return "Unknown_meta_event, \(type), " + bytes(data)
        }
    }

    /// `length, b1, b2…` in decimal.
    private static func bytes(_ data: [UInt8]) -> String {
        ([data.count] + data.map(Int.init)).map(String.init).joined(separator: ", ")
    }

    /// midicsv's string quoting over UTF-8 bytes: `""` for a quote, `\\` for a
    /// backslash, `\ooo` octal for bytes that are not graphic in ISO-8859-1.
    private static func quoted(_ text: String) -> String {
        var out = "\""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out += "\"\""
            case UInt8(ascii: "\\"): out += "\\\\"
            case 0x20...0x7E, 0xA0...0xFF: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                out += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return out + "\""
    }
}
