extension OSCPacket {
    /// The packet as OSC 1.0 bytes (a bundle's elements each with its size).
    /// - Thread: any.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .message(let message):
            Self.appendString(message.address, to: &out)
            Self.appendString("," + String(decoding: message.arguments.map(\.typeTag), as: UTF8.self), to: &out)
            for argument in message.arguments { Self.append(argument, to: &out) }
        case .bundle(let bundle):
            Self.appendString("#bundle", to: &out)
            Self.append(bundle.timeTag.seconds, to: &out)
            Self.append(bundle.timeTag.fraction, to: &out)
            for element in bundle.elements {
                let body = element.encoded()
                Self.append(UInt32(body.count), to: &out)
                out += body
            }
        }
    }

    private static func append(_ argument: OSCArgument, to out: inout [UInt8]) {
        switch argument {
        case .int(let value): append(UInt32(bitPattern: value), to: &out)
        case .float(let value): append(value.bitPattern, to: &out)
        case .double(let value):
            append(UInt32(value.bitPattern >> 32), to: &out)
            append(UInt32(value.bitPattern & 0xFFFF_FFFF), to: &out)
        case .string(let text): appendString(text, to: &out)
        case .bool: break
        case .midi(let midi): out += [midi.port, midi.status, midi.data1, midi.data2]
        }
    }

    private static func append(_ word: UInt32, to out: inout [UInt8]) {
        out += [UInt8(word >> 24), UInt8(word >> 16 & 0xFF), UInt8(word >> 8 & 0xFF), UInt8(word & 0xFF)]
    }

    /// `text` NUL-terminated and padded with NULs to a multiple of 4 bytes (a NUL inside it
    /// ends it, as a reader would).
    private static func appendString(_ text: String, to out: inout [UInt8]) {
        let bytes = text.utf8.prefix { $0 != 0 }
        out += bytes
        out += [UInt8](repeating: 0, count: 4 - bytes.count % 4)
    }
}
