internal import CALSA
import Glibc

extension SeqClient {
    /// Every port of every client, as `aconnect -l` lists them (ports marked
    /// `SND_SEQ_PORT_CAP_NO_EXPORT` are left out), sorted by address, with their
    /// subscriptions and the card of kernel clients.
    /// - Thread: the owning thread.
    public func ports() throws(ALSAError) -> [SeqPortInfo] {
        var result: [SeqPortInfo] = []
        try withClientInfo { (client: OpaquePointer) throws(ALSAError) in
            try withPortInfo { (port: OpaquePointer) throws(ALSAError) in
                snd_seq_client_info_set_client(client, -1)
                while snd_seq_query_next_client(handle, client) >= 0 {
                    let clientNumber = snd_seq_client_info_get_client(client)
                    let clientName = String(cString: snd_seq_client_info_get_name(client))
                    let clientType: SeqPortInfo.ClientType =
                        snd_seq_client_info_get_type(client) == SND_SEQ_KERNEL_CLIENT ? .kernel : .user
                    let card = snd_seq_client_info_get_card(client)
                    snd_seq_port_info_set_client(port, clientNumber)
                    snd_seq_port_info_set_port(port, -1)
                    while snd_seq_query_next_port(handle, port) >= 0 {
                        let capabilities = SeqPort.Capabilities(rawValue: snd_seq_port_info_get_capability(port))
                        if capabilities.contains(.noExport) { continue }
                        let address = SeqAddress(client: UInt8(truncatingIfNeeded: clientNumber),
                                                 port: UInt8(truncatingIfNeeded: snd_seq_port_info_get_port(port)))
                        result.append(SeqPortInfo(
                            address: address, clientName: clientName,
                            portName: String(cString: snd_seq_port_info_get_name(port)),
                            capabilities: capabilities,
                            types: SeqPort.Types(rawValue: snd_seq_port_info_get_type(port)),
                            clientType: clientType,
                            card: card >= 0 ? Int(card) : nil,
                            cardName: card >= 0 ? Self.cardName(card) : nil,
                            connectedTo: try subscriptions(of: address, type: SND_SEQ_QUERY_SUBS_READ),
                            connectedFrom: try subscriptions(of: address, type: SND_SEQ_QUERY_SUBS_WRITE)))
                    }
                }
            }
        }
        return result.sorted { $0.address < $1.address }
    }

    /// The ports `address` sends to (`SND_SEQ_QUERY_SUBS_READ`) or receives from (`…_WRITE`).
    private func subscriptions(of address: SeqAddress, type: snd_seq_query_subs_type_t) throws(ALSAError) -> [SeqAddress] {
        try withQuerySubscribe { (query: OpaquePointer) throws(ALSAError) in
            var root = snd_seq_addr_t(client: address.client, port: address.port)
            snd_seq_query_subscribe_set_root(query, &root)
            snd_seq_query_subscribe_set_type(query, type)
            snd_seq_query_subscribe_set_index(query, 0)
            var found: [SeqAddress] = []
            while snd_seq_query_port_subscribers(handle, query) >= 0 {
                let other = snd_seq_query_subscribe_get_addr(query)!.pointee
                found.append(SeqAddress(client: other.client, port: other.port))
                snd_seq_query_subscribe_set_index(query, snd_seq_query_subscribe_get_index(query) + 1)
            }
            return found
        }
    }

    /// The sound card's name (`snd_card_get_name`), `nil` when it cannot be read.
    private static func cardName(_ card: Int32) -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard snd_card_get_name(card, &name) >= 0, let name else { return nil }
        defer { Glibc.free(name) }
        return String(cString: name)
    }
}
