import Control
import MIDICore

/// Paces `parameter-changed` events: at most one per parameter each `interval` (30 a second
/// by default), the last value always sent. A parameter swept at 1 kHz reaches subscribers
/// as 30 updates a second ending on the value where the sweep stopped; other events pass at
/// once.
///
/// - Thread: control (the event thread, "midihub-events"); a plain value.
struct ParameterCoalescer {
    private struct Key: Hashable {
        let node: String
        let parameter: String
    }

    /// The least time between two events of one parameter.
    let interval: HostDuration
    /// When each parameter's last event went out (the monotonic clock).
    private var lastSent: [Key: HostTime] = [:]
    /// The newest value held back for each parameter, in the order they were first held.
    private var held: [Key: ControlEvent] = [:]
    private var heldOrder: [Key] = []

    init(interval: HostDuration = HostDuration(nanoseconds: 1_000_000_000 / 30)) {
        self.interval = interval
    }

    /// The events to send now for `events` arriving at `now`, in order; a parameter's change
    /// that comes too soon after its last one is held (replacing what was held for it).
    mutating func admit(_ events: [ControlEvent], at now: HostTime) -> [ControlEvent] {
        var out: [ControlEvent] = []
        for event in events {
            guard case .parameterChanged(let node, let parameter, _) = event else {
                out.append(event)
                continue
            }
            let key = Key(node: node, parameter: parameter)
            if held[key] == nil, now >= lastSent[key].map({ $0 + interval }) ?? .distantPast {
                lastSent[key] = now
                out.append(event)
            } else {
                if held[key] == nil { heldOrder.append(key) }
                held[key] = event
            }
        }
        return out
    }

    /// The held events whose time has come at `now` (all of them at `HostTime.distantFuture`).
    mutating func due(at now: HostTime) -> [ControlEvent] {
        var out: [ControlEvent] = []
        heldOrder.removeAll { key in
            guard now >= (lastSent[key] ?? .distantPast) + interval, let event = held.removeValue(forKey: key) else {
                return false
            }
            lastSent[key] = now
            out.append(event)
            return true
        }
        if held.isEmpty, lastSent.count > 4096 { lastSent.removeAll() }
        return out
    }

    /// When the next held event is due; `nil` when none is held.
    var nextDue: HostTime? {
        heldOrder.compactMap { lastSent[$0].map { $0 + interval } }.min()
    }
}
