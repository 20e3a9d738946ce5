internal import CALSA

extension SeqClient {
    /// Connects `sender` to `destination` (any two ports, as `aconnect` does).
    /// Subscribing an own port to `SeqAddress.systemAnnounce` delivers announcements.
    /// - Throws: `ALSAError` from `snd_seq_subscribe_port` (`-EBUSY` when already connected).
    /// - Thread: the owning thread.
    public func subscribe(sender: SeqAddress, destination: SeqAddress) throws(ALSAError) {
        try withSubscription(sender, destination) { (subscription: OpaquePointer) throws(ALSAError) in
            try check("snd_seq_subscribe_port", snd_seq_subscribe_port(handle, subscription))
        }
    }

    /// Removes the connection from `sender` to `destination`.
    /// - Throws: `ALSAError` from `snd_seq_unsubscribe_port` (`-ENOENT` when not connected).
    /// - Thread: the owning thread.
    public func unsubscribe(sender: SeqAddress, destination: SeqAddress) throws(ALSAError) {
        try withSubscription(sender, destination) { (subscription: OpaquePointer) throws(ALSAError) in
            try check("snd_seq_unsubscribe_port", snd_seq_unsubscribe_port(handle, subscription))
        }
    }

    private func withSubscription(_ sender: SeqAddress, _ destination: SeqAddress,
                                  _ body: (OpaquePointer) throws(ALSAError) -> Void) throws(ALSAError) {
        try withPortSubscribe { (subscription: OpaquePointer) throws(ALSAError) in
            var from = snd_seq_addr_t(client: sender.client, port: sender.port)
            var to = snd_seq_addr_t(client: destination.client, port: destination.port)
            snd_seq_port_subscribe_set_sender(subscription, &from)
            snd_seq_port_subscribe_set_dest(subscription, &to)
            try body(subscription)
        }
    }
}
