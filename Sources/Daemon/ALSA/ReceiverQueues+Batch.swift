import ALSA
import MIDICore

/// One `write` for a burst: while the owner routes the events of one read, what goes to other
/// programs' ports is buffered (alsa-lib's output buffer, with a shadow list of what each
/// buffered message is) and handed to the kernel at the end in one `write`, instead of one
/// `write` per message. The kernel delivers them in order and stops at the first it refuses
/// (a receiver whose input filled meanwhile, through another sender, or a port that left):
/// the messages before it arrived; the refused one waits in its receiver's queue (or, for a
/// port that left, is dropped), and so does every later one for that receiver; the others
/// are buffered again and written on. So a batch costs one `write` however many messages
/// and receivers it has, and a full receiver still refuses only its own messages.
///
/// - Thread: owner (the MIDI input thread), like `ReceiverQueues`.
extension ReceiverQueues {
    /// A message in the output buffer: where it goes and the bytes it takes there.
    struct BufferedMessage {
        var message: MIDIMessage
        var address: SeqAddress
        var schedule: SeqSchedule
        var bytes: Int
    }

    /// From now until `endBatch`, `send` buffers what has room instead of writing it.
    func beginBatch() {
        batching = true
    }

    /// Hands what the batch buffered to the kernel and sends at once again from now.
    func endBatch() {
        deliverBuffered()
        batching = false
    }

    /// Puts `item` into the output buffer (delivering what is there first when it is full),
    /// and counts it against its receiver's room (once: not when it is buffered again).
    func buffer(_ item: BufferedMessage, again: Bool = false) {
        var item = item
        do {
            guard let bytes = try client.buffer(item.message, from: port, to: item.address, schedule: item.schedule) else {
                deliverBuffered()
                buffer(item, again: again)
                return
            }
            item.bytes = bytes
            buffered.append(item)
            if !again { used(roomAt: item.address.client) }
        } catch {
            return  // larger than the whole buffer: nothing a receiver could take
        }
    }

    /// Writes the buffer; where the kernel stops, sorts the rest as the type says, until
    /// everything buffered has arrived or waits in its receiver's queue. (A receiver is
    /// only found full here: `send` reads its room from the kernel with the buffer empty.)
    func deliverBuffered() {
        var gone: Set<SeqAddress> = []
        while !buffered.isEmpty {
            switch client.deliverBuffered() {
            case .delivered:
                buffered.removeAll(keepingCapacity: true)
            case .stopped(let remaining, let receiverFull):
                client.dropBufferedOutput()
                var first = buffered.count, bytes = 0
                while bytes < remaining, first > 0 {
                    first -= 1
                    bytes += buffered[first].bytes
                }
                let unsent = Array(buffered[first...])
                buffered.removeAll(keepingCapacity: true)
                let stopper = unsent[0]
                if receiverFull {
                    refused(stopper.message, schedule: stopper.schedule, for: stopper.address)
                } else {
                    gone.insert(stopper.address)  // its departure is handled as such
                }
                for item in unsent.dropFirst() where !gone.contains(item.address) {
                    if blocked.contains(item.address) {
                        enqueue(item.message, schedule: item.schedule, for: item.address)
                    } else {
                        buffer(item, again: true)
                    }
                }
            }
        }
    }
}
