extension MIDIFile {
    /// The file as Standard MIDI File bytes: an `MThd` header, then one `MTrk` chunk
    /// per track (at most 65535).
    ///
    /// Channel messages use running status; meta and SysEx events cancel it (as
    /// readers expect). `.midi(.sysEx(payload))` is stored as `F0 length payload F7`;
    /// other system messages have no place in a file and are left out. An End of
    /// Track is appended at `endTick` (or the last event's tick when later). An
    /// `.unknown` meta of type 2F (End of Track) is left out so it cannot end the
    /// track early. Deltas and lengths beyond the SMF limit of 0x0FFFFFFF are clamped.
    ///
    /// - Thread: any.
    public func smfBytes() -> [UInt8] {
        var out: [UInt8] = []
        let writtenTracks = tracks.prefix(Int(UInt16.max))
        out.append(contentsOf: "MThd".utf8)
        Self.appendUInt32(6, to: &out)
        Self.appendUInt16(format, to: &out)
        Self.appendUInt16(UInt16(writtenTracks.count), to: &out)
        Self.appendUInt16(division.rawValue, to: &out)
        for track in writtenTracks {
            out.append(contentsOf: "MTrk".utf8)
            let lengthOffset = out.count
            Self.appendUInt32(0, to: &out)
            track.appendEvents(to: &out)
            let length = UInt32(out.count - lengthOffset - 4)
            out.replaceSubrange(lengthOffset..<lengthOffset + 4, with: Self.bigEndianBytes(length))
        }
        return out
    }

    static func appendUInt16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(value >> 8))
        out.append(UInt8(value & 0xFF))
    }

    static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: bigEndianBytes(value))
    }

    private static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

extension MIDIFile.Division {
    /// The header's 16-bit division word.
    var rawValue: UInt16 {
        switch self {
        case .ticksPerQuarter(let ticks):
            return ticks & 0x7FFF
        case .smpte(let framesPerSecond, let ticksPerFrame):
            return UInt16(UInt8(bitPattern: -Int8(truncatingIfNeeded: framesPerSecond))) << 8 | UInt16(ticksPerFrame)
        }
    }
}

extension MIDITrack {
    /// Appends the track's events and its End of Track, as delta-timed SMF events.
    fileprivate func appendEvents(to out: inout [UInt8]) {
        var lastTick = Tick.zero
        var runningStatus: UInt8 = 0

        func appendDelta(to tick: Tick) {
            VariableLengthQuantity.append(UInt32(clamping: (tick - lastTick).whole), to: &out)
            lastTick = max(lastTick, tick)
        }
        func appendLengthPrefixed(status: UInt8, _ data: [UInt8]) {
            out.append(status)
            let data = data.prefix(Int(VariableLengthQuantity.maximum))
            VariableLengthQuantity.append(UInt32(data.count), to: &out)
            out.append(contentsOf: data)
        }

        for event in events {
            switch event.kind {
            case .midi(.sysEx(let payload)):
                appendDelta(to: event.tick)
                runningStatus = 0
                appendLengthPrefixed(status: 0xF0, payload.map { $0 & 0x7F } + [0xF7])
            case .midi(let message) where message.channel != nil:
                appendDelta(to: event.tick)
                let statusOffset = out.count
                message.encode(into: &out)
                if out[statusOffset] == runningStatus {
                    out.remove(at: statusOffset)
                } else {
                    runningStatus = out[statusOffset]
                }
            case .midi:
                continue  // system common and realtime messages cannot be stored in a file
            case .sysEx(let data):
                appendDelta(to: event.tick)
                runningStatus = 0
                appendLengthPrefixed(status: 0xF0, data)
            case .sysExEscape(let data):
                appendDelta(to: event.tick)
                runningStatus = 0
                appendLengthPrefixed(status: 0xF7, data)
            case .meta(let meta):
                let (type, data) = meta.typeAndData
                guard type != MetaEvent.endOfTrackType else { continue }
                appendDelta(to: event.tick)
                runningStatus = 0
                out.append(0xFF)
                appendLengthPrefixed(status: type, data)
            }
        }
        appendDelta(to: endTick)
        out.append(contentsOf: [0xFF, MetaEvent.endOfTrackType, 0x00])
    }
}
