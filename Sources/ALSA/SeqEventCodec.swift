internal import CALSA
import MIDICore

/// Conversion between `snd_seq_event_t` and `MIDIMessage`.
///
/// Channels are 0-based on both sides. Pitch bend is 0…16383 in `MIDIMessage`
/// and -8192…8191 in ALSA. SysEx travels as a variable-length event holding the
/// whole message, F0 … F7.
///
/// - Thread: any (pure functions).
enum SeqEventCodec {
    /// Builds a cleared event carrying `message` and hands it to `body` (a SysEx
    /// event's data pointer is valid only inside `body`).
    static func withEvent<T>(for message: MIDIMessage,
                             _ body: (inout snd_seq_event_t) throws(ALSAError) -> T) throws(ALSAError) -> T {
        var event = snd_seq_event_t()
        midihub_seq_ev_clear(&event)
        func set(_ type: snd_seq_event_type, value: Int32 = 0) {
            event.type = code(type)
            event.data.control.value = value
            midihub_seq_ev_set_fixed(&event)
        }
        switch message {
        case .noteOff(let c, let n, let v): midihub_seq_ev_set_noteoff(&event, Int32(c), Int32(n), Int32(v))
        case .noteOn(let c, let n, let v): midihub_seq_ev_set_noteon(&event, Int32(c), Int32(n), Int32(v))
        case .polyPressure(let c, let n, let p): midihub_seq_ev_set_keypress(&event, Int32(c), Int32(n), Int32(p))
        case .controlChange(let c, let cc, let v): midihub_seq_ev_set_controller(&event, Int32(c), Int32(cc), Int32(v))
        case .programChange(let c, let p): midihub_seq_ev_set_pgmchange(&event, Int32(c), Int32(p))
        case .channelPressure(let c, let p): midihub_seq_ev_set_chanpress(&event, Int32(c), Int32(p))
        case .pitchBend(let c, let v): midihub_seq_ev_set_pitchbend(&event, Int32(c), Int32(v) - 8192)
        case .sysEx(let payload):
            var bytes = [0xF0] + payload + [0xF7]
            let result = bytes.withUnsafeMutableBytes { raw -> Result<T, ALSAError> in
                midihub_seq_ev_set_sysex(&event, UInt32(raw.count), raw.baseAddress)
                return Result { () throws(ALSAError) in try body(&event) }
            }
            return try result.get()
        case .mtcQuarterFrame(let v): set(SND_SEQ_EVENT_QFRAME, value: Int32(v))
        case .songPosition(let v): set(SND_SEQ_EVENT_SONGPOS, value: Int32(v))
        case .songSelect(let v): set(SND_SEQ_EVENT_SONGSEL, value: Int32(v))
        case .tuneRequest: set(SND_SEQ_EVENT_TUNE_REQUEST)
        case .clock: set(SND_SEQ_EVENT_CLOCK)
        case .start: set(SND_SEQ_EVENT_START)
        case .continue: set(SND_SEQ_EVENT_CONTINUE)
        case .stop: set(SND_SEQ_EVENT_STOP)
        case .activeSensing: set(SND_SEQ_EVENT_SENSING)
        case .reset: set(SND_SEQ_EVENT_RESET)
        }
        return try body(&event)
    }

    /// Decodes a received event; `nil` while a split SysEx is still incomplete.
    static func decode(_ event: snd_seq_event_t, sysEx: inout SysExAssembler) -> SeqEvent? {
        let source = SeqAddress(client: event.source.client, port: event.source.port)
        let time = withUnsafePointer(to: event, { midihub_seq_ev_is_real($0) }) != 0
            ? SeqTime.realTime(QueueTime(event.time.time))
            : SeqTime.tick(event.time.tick)
        let note = event.data.note, control = event.data.control
        let channel = note.channel & 0x0F, controlChannel = control.channel & 0x0F
        let value7 = UInt8(clamping: max(0, control.value)) & 0x7F
        let message: MIDIMessage
        switch snd_seq_event_type(UInt32(event.type)) {
        case SND_SEQ_EVENT_NOTEON: message = .noteOn(channel: channel, note: note.note & 0x7F, velocity: note.velocity & 0x7F)
        case SND_SEQ_EVENT_NOTEOFF: message = .noteOff(channel: channel, note: note.note & 0x7F, velocity: note.velocity & 0x7F)
        case SND_SEQ_EVENT_KEYPRESS: message = .polyPressure(channel: channel, note: note.note & 0x7F, pressure: note.velocity & 0x7F)
        case SND_SEQ_EVENT_CONTROLLER:
            message = .controlChange(channel: controlChannel, controller: UInt8(truncatingIfNeeded: control.param) & 0x7F, value: value7)
        case SND_SEQ_EVENT_PGMCHANGE: message = .programChange(channel: controlChannel, program: value7)
        case SND_SEQ_EVENT_CHANPRESS: message = .channelPressure(channel: controlChannel, pressure: value7)
        case SND_SEQ_EVENT_PITCHBEND:
            message = .pitchBend(channel: controlChannel, value: UInt16(min(16383, max(0, Int(control.value) + 8192))))
        case SND_SEQ_EVENT_SYSEX:
            let ext = event.data.ext
            guard withUnsafePointer(to: event, { midihub_seq_ev_is_variable($0) }) != 0, let pointer = ext.ptr,
                  let payload = sysEx.add(UnsafeRawBufferPointer(start: pointer, count: Int(ext.len)), from: source)
            else { return nil }
            message = .sysEx(payload)
        case SND_SEQ_EVENT_QFRAME: message = .mtcQuarterFrame(value7)
        case SND_SEQ_EVENT_SONGPOS: message = .songPosition(UInt16(min(16383, max(0, control.value))))
        case SND_SEQ_EVENT_SONGSEL: message = .songSelect(value7)
        case SND_SEQ_EVENT_TUNE_REQUEST: message = .tuneRequest
        case SND_SEQ_EVENT_CLOCK: message = .clock
        case SND_SEQ_EVENT_START: message = .start
        case SND_SEQ_EVENT_CONTINUE: message = .continue
        case SND_SEQ_EVENT_STOP: message = .stop
        case SND_SEQ_EVENT_SENSING: message = .activeSensing
        case SND_SEQ_EVENT_RESET: message = .reset
        default:
            if let announcement = announcement(event) { return .announce(announcement, time: time) }
            return .unsupported(type: event.type, source: source, time: time)
        }
        return .message(message, source: source, time: time)
    }

    private static func announcement(_ event: snd_seq_event_t) -> SeqAnnouncement? {
        let addr = SeqAddress(client: event.data.addr.client, port: event.data.addr.port)
        let connect = event.data.connect
        let sender = SeqAddress(client: connect.sender.client, port: connect.sender.port)
        let destination = SeqAddress(client: connect.dest.client, port: connect.dest.port)
        switch snd_seq_event_type(UInt32(event.type)) {
        case SND_SEQ_EVENT_CLIENT_START: return .clientStart(client: addr.client)
        case SND_SEQ_EVENT_CLIENT_EXIT: return .clientExit(client: addr.client)
        case SND_SEQ_EVENT_CLIENT_CHANGE: return .clientChange(client: addr.client)
        case SND_SEQ_EVENT_PORT_START: return .portStart(addr)
        case SND_SEQ_EVENT_PORT_EXIT: return .portExit(addr)
        case SND_SEQ_EVENT_PORT_CHANGE: return .portChange(addr)
        case SND_SEQ_EVENT_PORT_SUBSCRIBED: return .subscribed(sender: sender, destination: destination)
        case SND_SEQ_EVENT_PORT_UNSUBSCRIBED: return .unsubscribed(sender: sender, destination: destination)
        default: return nil
        }
    }

    private static func code(_ type: snd_seq_event_type) -> snd_seq_event_type_t {
        snd_seq_event_type_t(type.rawValue)
    }
}
