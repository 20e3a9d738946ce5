import ALSA
import MIDICore

/// A first-in first-out list of messages with their schedules: appends at the end, removes at
/// the front in constant time (the front's storage is reclaimed once half the array is used up).
///
/// - Thread: any (a plain value).
struct MessageFIFO {
    private var items: [(MIDIMessage, SeqSchedule)] = []
    private var head = 0

    var count: Int { items.count - head }
    var isEmpty: Bool { head == items.count }
    var first: (MIDIMessage, SeqSchedule)? { isEmpty ? nil : items[head] }

    mutating func append(_ item: (MIDIMessage, SeqSchedule)) {
        items.append(item)
    }

    mutating func removeFirst() {
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
