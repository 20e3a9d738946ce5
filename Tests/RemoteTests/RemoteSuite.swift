import Testing

/// Every test of the remote, one at a time: each starts a server with a port of its own,
/// and the slow-browser test wants the machine to itself while it floods its sockets.
@Suite(.serialized) enum RemoteSuite {}
