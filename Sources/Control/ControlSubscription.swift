/// The events of a subscribed `ControlClient`, in the order the daemon sent them.
///
///     for event in try client.subscribe() { print(event) }
///
/// As a `Sequence` it waits forever for each event and ends when the daemon closes the
/// connection or reading fails (then `error` says why); `next(timeout:)` throws instead.
///
/// - Thread: the client's thread.
public struct ControlSubscription: Sequence, IteratorProtocol {
    public let client: ControlClient
    /// Why the sequence ended early, when reading failed.
    public private(set) var error: ControlClientError?

    init(client: ControlClient) {
        self.client = client
    }

    /// The next event; `nil` when the daemon closed the connection.
    /// `timeout` in seconds, `nil` waits forever; throws `.timedOut` when it passes.
    public func next(timeout: Double?) throws(ControlClientError) -> ControlEvent? {
        try client.nextEvent(timeout: timeout)
    }

    public mutating func next() -> ControlEvent? {
        guard error == nil else { return nil }
        do {
            return try client.nextEvent()
        } catch {
            self.error = error
            return nil
        }
    }
}
