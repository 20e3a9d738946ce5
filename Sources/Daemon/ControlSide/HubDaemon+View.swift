import MIDICore

/// The view of the state the owner publishes for the control side (`HubView`): after each
/// piece of work another thread handed it (before that thread gets its answer, so a request
/// that follows sees the change), and at the end of a turn that changed something, at most
/// every `viewInterval`.
extension HubDaemon {
    /// The shortest time between two views published for changes MIDI made (a mapped knob
    /// swept at 1 kHz republishes 100 times a second, not 1,000).
    static let viewInterval = HostDuration.milliseconds(10)

    /// Publishes the state as it is now.
    /// - Thread: owner.
    func publishView(at now: HostTime) {
        OwnerThread.assertOnOwner("HubDaemon.publishView")
        viewDirty = false
        lastViewPublished = now
        view.publish(HubView(hub: core.snapshot, ports: ports, rendered: audio?.rendered, receivers: receiverStatuses(),
                             format: audio?.renderFormat, rack: audio?.layout))
    }

    /// At the end of a turn: publishes the view when something changed (or a receiver has
    /// messages waiting) and the last one is `viewInterval` old; releases the views replaced
    /// once no reader takes them. A turn that only routed reads no clock here.
    /// - Thread: owner.
    func publishViewIfDue() {
        view.releaseRetired()
        guard viewDirty || receivers.hasWaiting else { return }
        let now = HostTime.now()
        guard now - lastViewPublished >= Self.viewInterval else { return }
        publishView(at: now)
    }

    /// Runs `body` on the owner (`StateOwner.perform`), then publishes the view, and returns
    /// `body`'s result: the caller's next read of the view sees what `body` changed.
    /// - Thread: any.
    func perform<T>(_ body: @escaping () throws -> T) throws -> T {
        try owner.perform { [self] in
            defer { publishView(at: HostTime.now()) }
            return try body()
        }
    }
}
