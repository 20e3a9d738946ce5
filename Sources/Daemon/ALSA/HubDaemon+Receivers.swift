import ALSA
import Control
import Hub

/// How other programs' ALSA ports keep up with what the hub sends them (`ReceiverQueues`):
/// losses reported, each external node's receiver shown in `nodes.list`.
extension HubDaemon {
    /// Logs each receiver that lost messages (one line naming the port, the count and the fix)
    /// and publishes `node-overloaded` for each external node that plays to it.
    /// - Thread: owner.
    func reportReceiverLosses(_ losses: [ReceiverQueues.Loss]) {
        for loss in losses {
            let fix = receivers.hasGivenUp(on: loss.address)
                ? "given up on: it gets nothing until it reads again" : "it gets what waits in its queue"
            log.warning("\(describeReceiver(loss.address)) stopped taking MIDI: \(loss.new) messages dropped for it alone, \(loss.total) in all; "
                + "the other receivers go on (fix: resume or restart that program; \(fix))")
            for node in externalNodes(at: loss.address) {
                log.publish(.nodeOverloaded(node: node, port: "\(loss.address)", count: loss.total))
            }
        }
    }

    /// Logs each receiver given up on or back (one line each) and publishes `node-gone` with
    /// `overloaded` for each external node that plays to one given up on.
    /// - Thread: owner.
    func reportReceiverChanges(_ changes: [ReceiverQueues.Change]) {
        for change in changes {
            switch change {
            case .gaveUp(let address, let discarded):
                log.warning("\(describeReceiver(address)) took no MIDI for \(Int(receivers.giveUpAfter.seconds)) s: gave up on it, "
                    + "\(discarded) waiting messages discarded; it gets nothing until it reads again "
                    + "(fix: resume or restart that program, or a longer --receiver-timeout)")
                for node in externalNodes(at: address) {
                    log.publish(.nodeGone(node: node, reason: .overloaded))
                }
            case .readsAgain(let address):
                log.info("\(describeReceiver(address)) reads MIDI again: sent sustain off and all notes off on the channels it lost, "
                    + "then MIDI as before")
            }
        }
    }

    /// How the receiver of each external node keeps up, for the nodes whose receiver does
    /// not take everything (an ALSA port with messages waiting or lost), for the published view.
    /// - Thread: owner.
    func receiverStatuses() -> [NodeID: ReceiverStatus] {
        let destinations = routeDestinations()
        var statuses: [NodeID: ReceiverStatus] = [:]
        for (node, destination) in zip(core.snapshot.graph.nodes, destinations) {
            guard case .alsa(let address) = destination else { continue }
            let status = receivers.status(of: address)
            if status.waiting != 0 || status.dropped != 0 {
                statuses[node.id] = ReceiverStatus(waiting: status.waiting, dropped: status.dropped)
            }
        }
        return statuses
    }

    /// `'aseqdump:aseqdump' (129:0)`, or `port 129:0` when the port is not known.
    private func describeReceiver(_ address: SeqAddress) -> String {
        ports.descriptor(at: PortAddress(address)).map { "'\($0.clientName):\($0.portName)' (\(address))" } ?? "port \(address)"
    }

    /// The external nodes whose MIDI goes to the ALSA port `address`.
    private func externalNodes(at address: SeqAddress) -> [NodeID] {
        let destinations = routeDestinations()
        return zip(core.snapshot.graph.nodes, destinations).compactMap { node, destination in
            if case .alsa(address) = destination { node.id } else { nil }
        }
    }
}
