extension MIDIFile {
    /// Reads a Standard MIDI File (format 0, 1 or 2; PPQ or SMPTE division).
    ///
    /// Tolerance, chosen to accept the files found in the wild while rejecting
    /// damaged ones:
    /// - Chunks other than `MTrk` after the header are skipped, as the spec says;
    ///   bytes after the last declared track are ignored.
    /// - A track whose End of Track meta event is missing ends at its chunk's end
    ///   (its `endTick` is its last event's tick); bytes after End of Track inside
    ///   the chunk are ignored.
    /// - A known meta event with a length other than the spec's is kept verbatim as
    ///   `MetaEvent.unknown`, so it round-trips.
    /// - Fewer tracks than the header declares, a chunk longer than the file, an
    ///   event cut off by its chunk's end, a quantity over 4 bytes, a data byte
    ///   without running status (meta and SysEx events cancel it) or a system
    ///   status byte in a track throw `SMFError` with the offending byte offset.
    ///
    /// Note-on with velocity 0 stays a `noteOn` (so files round-trip). Memory is
    /// bounded by the file's size: length fields are checked against the bytes left
    /// before anything is allocated from them.
    ///
    /// - Thread: any.
    public init(smf bytes: [UInt8]) throws(SMFError) {
        guard bytes.count >= 8, bytes[0..<4].elementsEqual("MThd".utf8) else {
            throw SMFError(offset: 0, reason: .missingHeader)
        }
        let headerLength = bytes.uint32(at: 4)
        guard headerLength >= 6 else {
            throw SMFError(offset: 4, reason: .headerTooShort(length: headerLength))
        }
        guard Int(headerLength) <= bytes.count - 8 else {
            throw SMFError(offset: 0, reason: .chunkExceedsFile(type: "MThd", length: headerLength, remaining: bytes.count - 8))
        }
        let format = bytes.uint16(at: 8)
        guard format <= 2 else { throw SMFError(offset: 8, reason: .unsupportedFormat(format)) }
        let declaredTracks = Int(bytes.uint16(at: 10))
        let division = try Division(raw: bytes.uint16(at: 12), offset: 12)

        var tracks: [MIDITrack] = []
        var chunkStart = 8 + Int(headerLength)
        while tracks.count < declaredTracks {
            guard bytes.count - chunkStart >= 8 else {
                throw SMFError(offset: chunkStart, reason: .missingTracks(declared: declaredTracks, found: tracks.count))
            }
            let length = bytes.uint32(at: chunkStart + 4)
            let remaining = bytes.count - chunkStart - 8
            guard Int(length) <= remaining else {
                let type = Self.chunkTypeName(bytes[chunkStart..<chunkStart + 4])
                throw SMFError(offset: chunkStart, reason: .chunkExceedsFile(type: type, length: length, remaining: remaining))
            }
            let dataStart = chunkStart + 8
            if bytes[chunkStart..<chunkStart + 4].elementsEqual("MTrk".utf8) {
                var reader = SMFByteReader(bytes: bytes, from: dataStart, to: dataStart + Int(length))
                tracks.append(try MIDITrack(reading: &reader))
            }
            chunkStart = dataStart + Int(length)
        }
        self.init(format: format, division: division, tracks: tracks)
    }

    /// A chunk type for messages: its ASCII text, or hex when it is not printable.
    private static func chunkTypeName(_ type: ArraySlice<UInt8>) -> String {
        if type.allSatisfy({ (0x20...0x7E).contains($0) }) {
            return String(decoding: type, as: UTF8.self)
        }
        return "0x" + type.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}

extension MIDIFile.Division {
    /// Decodes the header's division word; `offset` locates it for errors.
    init(raw: UInt16, offset: Int) throws(SMFError) {
        if raw & 0x8000 == 0 {
            guard raw > 0 else { throw SMFError(offset: offset, reason: .invalidDivision(raw)) }
            self = .ticksPerQuarter(raw)
            return
        }
        let framesPerSecond = UInt8(truncatingIfNeeded: -Int(Int8(bitPattern: UInt8(raw >> 8))))
        let ticksPerFrame = UInt8(raw & 0xFF)
        guard [24, 25, 29, 30].contains(framesPerSecond), ticksPerFrame > 0 else {
            throw SMFError(offset: offset, reason: .invalidDivision(raw))
        }
        self = .smpte(framesPerSecond: framesPerSecond, ticksPerFrame: ticksPerFrame)
    }
}

extension MIDITrack {
    /// Reads the events of one `MTrk` chunk, up to End of Track or the chunk's end.
    init(reading reader: inout SMFByteReader) throws(SMFError) {
        var events: [TrackEvent] = []
        // A dense track averages 3–4 bytes per event. The chunk's size was checked
        // against the file, so this reserve is bounded by the bytes actually present.
        events.reserveCapacity(reader.remaining / 4)
        var tick = Tick.zero
        var runningStatus: UInt8 = 0
        while !reader.isAtEnd {
            tick = tick + Tick(UInt64(try reader.readQuantity()))
            let statusOffset = reader.offset
            var status = try reader.readByte()
            var firstData: UInt8? = nil
            if status < 0x80 {
                guard runningStatus != 0 else {
                    throw SMFError(offset: statusOffset, reason: .dataByteWithoutStatus(status))
                }
                firstData = status
                status = runningStatus
            }
            switch status {
            case 0x80...0xEF:
                runningStatus = status
                let message = try Self.readChannelMessage(status: status, firstData: firstData, from: &reader)
                events.append(TrackEvent(tick: tick, .midi(message)))
            case 0xF0, 0xF7:
                runningStatus = 0
                let data = try reader.readBytes(try reader.readQuantity())
                events.append(TrackEvent(tick: tick, status == 0xF0 ? .sysEx(data) : .sysExEscape(data)))
            case 0xFF:
                runningStatus = 0
                let type = try reader.readByte()
                let data = try reader.readBytes(try reader.readQuantity())
                if type == MetaEvent.endOfTrackType {
                    reader.skipToEnd()
                } else {
                    events.append(TrackEvent(tick: tick, .meta(MetaEvent(type: type, data: data))))
                }
            default:
                throw SMFError(offset: statusOffset, reason: .invalidStatus(status))
            }
        }
        self.init(events: events, endTick: tick)
    }

    private static func readChannelMessage(status: UInt8, firstData: UInt8?, from reader: inout SMFByteReader) throws(SMFError) -> MIDIMessage {
        let data1 = if let firstData { firstData } else { try readDataByte(from: &reader) }
        let data2 = if MIDIMessage.dataLength(ofChannelStatus: status) == 2 { try readDataByte(from: &reader) } else { UInt8(0) }
        return .channelVoice(status: status, data1: data1, data2: data2)
    }

    private static func readDataByte(from reader: inout SMFByteReader) throws(SMFError) -> UInt8 {
        let offset = reader.offset
        let byte = try reader.readByte()
        guard byte < 0x80 else { throw SMFError(offset: offset, reason: .statusByteInsideMessage(byte)) }
        return byte
    }
}
