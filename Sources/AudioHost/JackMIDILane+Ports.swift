/// The lane's ports on the hub's JACK client: registered, connected and let go on
/// `JackAudioPorts`' queue, as the sources and destinations asked for change and as the
/// client comes and goes.
extension JackMIDILane {
    /// Reads exactly `inputs` from now on (on `client` when there is one): ports of sources
    /// and destinations no longer asked for leave the client, new ones get ports, connected.
    /// - Thread: control (the ports' queue).
    func apply(_ inputs: [Input], on client: JackAudioClient?, report: (String) -> Void) {
        wanted = inputs
        let sources = Set(inputs.map(\.key))
        for slot in slots where slot.key.load(ordering: .relaxed) >= 0 && !sources.contains(slot.key.load(ordering: .relaxed)) {
            release(slot, on: client)
        }
        let destinations = Set(inputs.flatMap(\.routes).compactMap { route in
            if case .port(let key, _) = route.target { key } else { nil }
        })
        for slot in outputs where slot.key.load(ordering: .relaxed) >= 0 && !destinations.contains(slot.key.load(ordering: .relaxed)) {
            release(slot, on: client)
        }
        for input in inputs { serve(input, on: client, report: report) }
    }

    /// The hub's client joined a server: every source and destination asked for gets a port on it.
    /// - Thread: control (the ports' queue).
    func bind(to client: JackAudioClient, report: (String) -> Void) {
        unbind()
        for input in wanted { serve(input, on: client, report: report) }
    }

    /// The client is going: no slot uses its ports any more.
    /// - Thread: control (the ports' queue).
    func unbind() {
        for slot in slots + outputs { _ = slot.unbind() }
        registered.withLock { $0.removeAll() }
    }

    /// Connects each source to its port, and each output port to its destination, again
    /// (JACK's ports changed: one came back).
    /// - Thread: control (the ports' queue).
    func connect(on client: JackAudioClient) {
        for slot in slots where slot.generation.load(ordering: .relaxed) == client.generation {
            client.connect(slot.peer, to: slot.portName)
        }
        for slot in outputs where slot.generation.load(ordering: .relaxed) == client.generation {
            client.connect(slot.portName, to: slot.peer)
        }
    }

    /// Gives `input` its port, and its destinations theirs, with its routes.
    private func serve(_ input: Input, on client: JackAudioClient?, report: (String) -> Void) {
        guard let reader = slot(for: input.key, in: slots) else {
            if reported.insert(input.key).inserted {
                report("JACK MIDI from \(input.source) goes through the MIDI thread, a period later: the hub reads "
                       + "\(Self.slotCount) JACK sources in its process callback at most")
            }
            return
        }
        var packed: [UInt32] = []
        var portRoutes: [UInt32] = []
        var allPorts = true  // all or none: the owner plays the ports the lane does not
        for route in input.routes {
            switch route.target {
            case .node(let node):
                packed.append(UInt32(node) << 16 | UInt32(route.channelMask))
            case .port(let key, let name):
                let writer = slot(for: key, in: outputs)
                guard let index = outputs.firstIndex(where: { $0 === writer }) else {
                    allPorts = false
                    if reported.insert(key).inserted {
                        report("JACK MIDI to \(name) goes through the MIDI thread, a period later: the hub writes "
                               + "\(Self.outputCount) JACK destinations in its process callback at most")
                    }
                    continue
                }
                if let client { bind(outputs[index], to: name, output: true, on: client, report: report) }
                portRoutes.append((JackMIDISlot.outputBit | UInt32(index)) << 16 | UInt32(route.channelMask))
            }
        }
        reader.setRoutes(packed + (allPorts ? portRoutes : []))
        if let client { bind(reader, to: input.source, output: false, on: client, report: report) }
    }

    /// The slot serving `key`, or a free one taken for it; nil when all are taken.
    private func slot(for key: Int, in list: [JackMIDISlot]) -> JackMIDISlot? {
        if let held = list.first(where: { $0.key.load(ordering: .relaxed) == key }) { return held }
        guard let free = list.first(where: { $0.key.load(ordering: .relaxed) < 0 }) else { return nil }
        free.key.store(key, ordering: .relaxed)
        return free
    }

    /// Registers `slot`'s port on `client` (once per client, and again when its peer moved:
    /// `from-PEER` reading it, or `to-PEER` writing to it) and connects it.
    private func bind(_ slot: JackMIDISlot, to peer: String, output: Bool, on client: JackAudioClient, report: (String) -> Void) {
        guard !client.serverGone else { return }
        let moved = slot.peer != peer
        slot.peer = peer
        if slot.generation.load(ordering: .relaxed) != client.generation || moved {
            unregister(slot, on: client)
            let name = (output ? "to-" : "from-") + peer
            registered.withLock { _ = $0.insert(client.name + ":" + name) }
            guard let port = client.registerMIDIPort(named: name, input: !output) else {
                report("JACK refused the MIDI port \(client.name):\(name); its MIDI goes through the MIDI thread "
                       + "(fix: restart the hub)")
                return
            }
            slot.bind(port.port, named: port.fullName, generation: client.generation)
        }
        if output { client.connect(slot.portName, to: peer) } else { client.connect(peer, to: slot.portName) }
    }

    private func release(_ slot: JackMIDISlot, on client: JackAudioClient?) {
        unregister(slot, on: client)
        slot.setRoutes([])
        slot.key.store(-1, ordering: .relaxed)
        slot.peer = ""
    }

    /// Takes `slot`'s port off `client` (when it is there and its server lives).
    private func unregister(_ slot: JackMIDISlot, on client: JackAudioClient?) {
        let bound = slot.generation.load(ordering: .relaxed), name = slot.portName
        guard let port = slot.unbind() else { return }
        registered.withLock { _ = $0.remove(name) }
        if let client, !client.serverGone, bound == client.generation { client.unregister(port) }
    }
}
