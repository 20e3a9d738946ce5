internal import CLilv
import RenderCore

/// `time:Position` for plugins that follow the host's transport (eg-metro, arpeggiators,
/// tempo-synced delays): an atom object with the frame, whether the transport rolls, the
/// bar and beat, the meter and the tempo, written at frame 0 of each block into the atom
/// inputs that support it (`atom:supports time:Position`). LV2 counts bars from 0 and beats in
/// the meter's unit: the hub's quarter notes are converted here.
///
/// - Thread: render (`append`); made on control.
struct TimePosition {
    private let object, position, long, float, int: LV2_URID
    private let frame, speed, bar, barBeat, beatUnit, beatsPerBar, beatsPerMinute: LV2_URID

    /// The bytes one position takes in a sequence: the event's frame and atom header, the
    /// object's id and type, seven properties of 24 bytes each.
    static let eventSize = 16 + 8 + 7 * 24

    /// - Thread: control.
    init(urids: URIDMap) {
        let time = "http://lv2plug.in/ns/ext/time#"
        object = urids.id(of: LV2Vocabulary.atomObject)
        position = urids.id(of: time + "Position")
        (long, float, int) = (urids.id(of: LV2Vocabulary.atomLong), urids.id(of: LV2Vocabulary.atomFloat),
                              urids.id(of: LV2Vocabulary.atomInt))
        (frame, speed, bar, barBeat) = (urids.id(of: time + "frame"), urids.id(of: time + "speed"), urids.id(of: time + "bar"),
                                        urids.id(of: time + "barBeat"))
        (beatUnit, beatsPerBar, beatsPerMinute) = (urids.id(of: time + "beatUnit"), urids.id(of: time + "beatsPerBar"),
                                                   urids.id(of: time + "beatsPerMinute"))
    }

    /// Appends the position `host` describes at frame 0 to the sequence in `buffer` (of
    /// `capacity` bytes); false when it does not fit.
    /// - Thread: render.
    func append(_ host: HostSync, to buffer: UnsafeMutableRawPointer, capacity: Int) -> Bool {
        let size = buffer.load(as: UInt32.self)
        var offset = 8 + Int(size)
        guard offset + Self.eventSize <= capacity else { return false }
        let unit = Double(max(host.timeSignatureDenominator, 1))
        buffer.storeBytes(of: Int64(0), toByteOffset: offset, as: Int64.self)
        buffer.storeBytes(of: UInt32(Self.eventSize - 16), toByteOffset: offset + 8, as: UInt32.self)
        buffer.storeBytes(of: object, toByteOffset: offset + 12, as: UInt32.self)
        buffer.storeBytes(of: UInt32(0), toByteOffset: offset + 16, as: UInt32.self)  // a blank object
        buffer.storeBytes(of: position, toByteOffset: offset + 20, as: UInt32.self)
        offset += 24
        func property(_ key: LV2_URID, type: LV2_URID, store: (Int) -> Void, size: UInt32) {
            buffer.storeBytes(of: key, toByteOffset: offset, as: UInt32.self)
            buffer.storeBytes(of: UInt32(0), toByteOffset: offset + 4, as: UInt32.self)
            buffer.storeBytes(of: size, toByteOffset: offset + 8, as: UInt32.self)
            buffer.storeBytes(of: type, toByteOffset: offset + 12, as: UInt32.self)
            buffer.storeBytes(of: UInt64(0), toByteOffset: offset + 16, as: UInt64.self)
            store(offset + 16)
            offset += 24
        }
        property(frame, type: long, store: { buffer.storeBytes(of: host.samplePosition, toByteOffset: $0, as: Int64.self) }, size: 8)
        property(speed, type: float, store: { buffer.storeBytes(of: Float(host.transport == .stopped ? 0 : 1), toByteOffset: $0, as: Float.self) },
                 size: 4)
        property(bar, type: long, store: { buffer.storeBytes(of: Int64(max(host.bar - 1, 0)), toByteOffset: $0, as: Int64.self) }, size: 8)
        property(barBeat, type: float, store: {
            buffer.storeBytes(of: Float((host.beat - host.barStartBeat) * unit / 4), toByteOffset: $0, as: Float.self)
        }, size: 4)
        property(beatUnit, type: int, store: { buffer.storeBytes(of: Int32(unit), toByteOffset: $0, as: Int32.self) }, size: 4)
        property(beatsPerBar, type: float, store: {
            buffer.storeBytes(of: Float(host.timeSignatureNumerator), toByteOffset: $0, as: Float.self)
        }, size: 4)
        property(beatsPerMinute, type: float, store: { buffer.storeBytes(of: Float(host.tempo * unit / 4), toByteOffset: $0, as: Float.self) },
                 size: 4)
        buffer.storeBytes(of: size + UInt32(Self.eventSize), toByteOffset: 0, as: UInt32.self)
        return true
    }
}
