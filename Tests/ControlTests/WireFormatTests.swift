import Testing

@testable import Control

@Suite("JSON lines on the wire")
struct WireFormatTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func requestsAreWrittenAsDocumented() throws {
        #expect(text(try ControlRequest.listPorts.encodedLine(id: 1)) == #"{"id":1,"request":"ports.list"}"# + "\n")
        let set = ControlRequest.setParameter(ParameterAssignment(node: "lead", parameter: "cutoff", value: 1200))
        #expect(text(try set.encodedLine(id: 2))
            == #"{"id":2,"params":{"node":"lead","parameter":"cutoff","value":1200},"request":"parameters.set"}"# + "\n")
    }

    @Test func aParameterIsSetByTheNameOfAChoice() throws {
        let set = ControlRequest.setParameter(ParameterAssignment(node: "lead", parameter: "osc1 wave", choice: "saw"))
        #expect(text(try set.encodedLine(id: 3))
            == #"{"id":3,"params":{"node":"lead","parameter":"osc1 wave","value":"saw"},"request":"parameters.set"}"# + "\n")
        let waves = ["preset", "sine", "triangle", "saw"].enumerated().map { ParameterSummary.Choice(label: $1, value: Double($0)) }
        #expect(try ParameterAssignment(node: "lead", parameter: "osc1 wave", choice: "SAW").number(among: waves) == 3)
        #expect(try ParameterAssignment(node: "lead", parameter: "osc1 wave", value: 2.5).number(among: waves) == 2.5)
        let refusal = #expect(throws: ControlError.self) {
            try ParameterAssignment(node: "lead", parameter: "osc1 wave", choice: "sawtooth").number(among: waves)
        }
        #expect(refusal?.message == "parameter 'osc1 wave' of node 'lead' has no choice 'sawtooth'")
        #expect(refusal?.fix == "use one of preset, sine, triangle, saw, or a number")
        #expect(throws: ControlError.self) { try ParameterAssignment(node: "lead", parameter: "gain", choice: "loud").number(among: nil) }
    }

    @Test func everyRequestSurvivesARoundTrip() throws {
        let requests: [ControlRequest] = [
            .hello(Hello(client: "t")), .listPorts, .listConnections, .listNodes, .listNodeTypes,
            .connect(ConnectionSummary(source: "a", destination: "b")),
            .disconnect(ConnectionSummary(source: "a", destination: "b")),
            .addNode(NodeSpec(type: "external-instrument", id: "fluid", port: "FLUID Synth")),
            .removeNode(NodeReference(node: "fluid")),
            .replaceNode(NodeReplacement(node: "lead", with: NodeSpec(type: "synth"))),
            .setParameter(ParameterAssignment(node: "lead", parameter: "gain", value: .infinity)),
            .setParameter(ParameterAssignment(node: "lead", parameter: "osc1 wave", choice: "saw")),
            .loadPreset(PresetLoad(node: "piano", preset: "Mellow")), .savePreset(PresetSave(node: "amp", label: "Quiet room")),
            .loadPatch(PatchSource(path: "/p.yaml")), .listRules,
            .setRules(RuleList(rules: [RuleSummary(action: .disallow, source: "*", destination: #"app:"/FLUID.*/:*""#)])),
            .subscribe(SubscriptionFilter(events: [.log])), .subscribe(SubscriptionFilter()),
            .listMappings, .setMappings(MappingList(text: "- {control: cc 74, to: lead.gain}")),
            .learn(LearnRequest(node: "lead", parameter: "gain", seconds: 10)), .learn(LearnRequest(node: "lead", parameter: "gain")),
            .cancelLearn, .listScenes, .switchScene(SceneReference(scene: "verse")),
            .listTriggers, .fireTrigger(TriggerReference(trigger: "panic")), .listWidgets,
            .setWidget(WidgetSetting(widget: "synth.brightness", value: 12.5)), .pressWidget(WidgetReference(widget: "trigger.panic")),
            .releaseWidget(WidgetReference(widget: "Vibrato")),
            .transport(TransportRequest(action: .seek, position: "9:1")), .transport(TransportRequest(action: .status)),
            .transport(TransportRequest(action: .loop, from: "5", to: "9")), .transport(TransportRequest(action: .tempo, bpm: 96)),
            .transport(TransportRequest(action: .load, path: "/home/me/song.mid")),
            .recordAudio(AudioRecordRequest(path: "/home/me/take.wav")), .recordAudio(AudioRecordRequest(stop: true)),
            .recordAudio(AudioRecordRequest(path: "/home/me/hall.wav", node: "hall")),
            .networkStatus, .networkConnect(NetworkPeerAddress(host: "192.168.1.20:5004")),
            .networkDisconnect(NetworkPeerReference(peer: "laptop")),
        ]
        #expect(Set(requests.map(\.kind)) == Set(ControlRequestKind.allCases))
        for request in requests {
            var line = try request.encodedLine(id: .string("x"))
            line.removeLast()
            let (id, decoded) = ControlRequest.decode(line: line)
            #expect(id == .string("x"))
            #expect(try decoded.get() == request)
        }
    }

    @Test func responsesAndEventsLookAsDocumented() throws {
        let ok = ControlResponse(id: 1, outcome: .success(.done))
        #expect(text(try JSONLine.encode(ok)) == #"{"id":1,"ok":true,"result":{}}"# + "\n")
        let refused = ControlResponse(id: 2, outcome: .failure(ControlError(.unknownNode, "no node 'x'")))
        #expect(text(try JSONLine.encode(refused))
            == #"{"error":{"code":"unknown-node","message":"no node 'x'"},"id":2,"ok":false}"# + "\n")
        #expect(text(try JSONLine.encode(ControlEvent.nodeGone(node: "fluid", reason: .deviceUnplugged)))
            == #"{"event":"node-gone","node":"fluid","reason":"device-unplugged"}"# + "\n")
    }

    @Test func portsHaveTheCLIsFieldsWithNulls() throws {
        let line = text(try JSONLine.encode(FakeDaemon.jackPort))
        #expect(line == #"{"address":"jack:system:midi_capture_1","card":null,"cardName":null,"client":null,"#
            + #""clientName":"system","connectedFrom":[],"connectedTo":[],"direction":"source","kind":"app","#
            + #""port":null,"portName":"midi_capture_1","serial":null,"usbPath":null}"# + "\n")
        #expect(try JSONLine.decode(PortSummary.self, from: Array(line.utf8)) == FakeDaemon.jackPort)
    }

    @Test func everyEventSurvivesARoundTrip() throws {
        let events = SubscriptionTests.events + [.dropped(count: 4)]
        #expect(Set(events.map(\.kind)) == Set(ControlEventKind.allCases))
        for event in events {
            #expect(try JSONLine.decode(ControlEvent.self, from: JSONLine.encode(event)) == event)
        }
    }

    @Test func networkRequestsSessionsAndEventsAreWrittenAsDocumented() throws {
        #expect(text(try ControlRequest.networkStatus.encodedLine(id: 1)) == #"{"id":1,"request":"network.status"}"# + "\n")
        #expect(text(try ControlRequest.networkConnect(NetworkPeerAddress(host: "192.168.1.20")).encodedLine(id: 2))
            == #"{"id":2,"params":{"host":"192.168.1.20"},"request":"network.connect"}"# + "\n")
        #expect(text(try ControlRequest.networkDisconnect(NetworkPeerReference(peer: "laptop")).encodedLine(id: 3))
            == #"{"id":3,"params":{"peer":"laptop"},"request":"network.disconnect"}"# + "\n")
        let session = NetworkSessionSummary(peer: "laptop", address: "192.168.1.10:5004", state: "up", invited: false,
                                            port: "129:0", latencyMs: 0.4, jitterMs: 0.1, packetsSent: 12, packetsReceived: 840,
                                            packetsLost: 3, packetsRepaired: 3)
        let answer = ControlResponse(id: 1, outcome: .success(.networkSessions([session])))
        let line = text(try JSONLine.encode(answer))
        #expect(line == #"{"id":1,"ok":true,"result":[{"address":"192.168.1.10:5004","invited":false,"jitterMs":0.1,"latencyMs":0.4,"#
            + #""packetsLate":0,"packetsLost":3,"packetsMalformed":0,"packetsReceived":840,"packetsRepaired":3,"packetsSent":12,"#
            + #""peer":"laptop","port":"129:0","state":"up"}]}"# + "\n")
        #expect(try ControlRequestKind.networkStatus.decodeResult(from: Array(line.utf8)) == .networkSessions([session]))
        let inviting = NetworkSessionSummary(peer: "192.168.1.20:5004", address: "192.168.1.20:5004", state: "inviting", invited: true)
        #expect(!text(try JSONLine.encode(inviting)).contains("latencyMs"), "no latency before the first clock sync")
        #expect(!text(try JSONLine.encode(inviting)).contains("jitterMs"), "no jitter before the first clock sync")
        #expect(text(try JSONLine.encode(ControlEvent.sessionUp(NetworkSessionChange(peer: "laptop", address: "192.168.1.10:5004",
                                                                                      port: "129:0"))))
            == #"{"address":"192.168.1.10:5004","event":"session-up","peer":"laptop","port":"129:0"}"# + "\n")
        #expect(text(try JSONLine.encode(ControlEvent.sessionDown(NetworkSessionChange(
            peer: "laptop", address: "192.168.1.10:5004", reason: "the peer ended the session"))))
            == #"{"address":"192.168.1.10:5004","event":"session-down","peer":"laptop","reason":"the peer ended the session"}"# + "\n")
    }

    @Test func widgetRequestsAreWrittenAsDocumented() throws {
        #expect(text(try ControlRequest.setWidget(WidgetSetting(widget: "synth.brightness", value: 12)).encodedLine(id: 1))
            == #"{"id":1,"params":{"value":12,"widget":"synth.brightness"},"request":"widgets.set"}"# + "\n")
        #expect(text(try ControlRequest.pressWidget(WidgetReference(widget: "trigger.panic")).encodedLine(id: 2))
            == #"{"id":2,"params":{"widget":"trigger.panic"},"request":"widgets.press"}"# + "\n")
        #expect(text(try ControlRequest.releaseWidget(WidgetReference(widget: "trigger.panic")).encodedLine(id: 3))
            == #"{"id":3,"params":{"widget":"trigger.panic"},"request":"widgets.release"}"# + "\n")
        let (_, missing) = ControlRequest.decode(line: Array(#"{"id":4,"request":"widgets.set","params":{"widget":"scene"}}"#.utf8))
        #expect(throws: ControlError(.badParams, "widgets.set: missing field 'params.value'",
                                     fix: "see docs/control-protocol.md for 'widgets.set'")) { try missing.get() }
    }

    @Test func aWidgetResultDecodesAsOneWidget() throws {
        let slider = WidgetSummary(kind: "slider", title: "Filter", target: "synth.brightness", min: -48, max: 48, unit: "semitones", value: 12)
        let response = ControlResponse(id: 1, outcome: .success(.widget(slider)))
        for kind in [ControlRequestKind.setWidget, .pressWidget, .releaseWidget] {
            #expect(try kind.decodeResult(from: JSONLine.encode(response)) == .widget(slider))
        }
    }

    @Test func resultsDecodeByRequestKind() throws {
        let nodes = ControlResponse(id: 5, outcome: .success(.nodes([FakeDaemon.synth])))
        #expect(try ControlRequestKind.listNodes.decodeResult(from: JSONLine.encode(nodes)) == .nodes([FakeDaemon.synth]))
    }
}

@Suite("Cutting a byte stream into lines")
struct LineSplitterTests {
    @Test func linesSplitAcrossReadsAndCRLF() {
        var splitter = LineSplitter(maxLength: 100)
        splitter.append(ArraySlice("{\"a\"".utf8))
        #expect(splitter.next() == nil)
        splitter.append(ArraySlice(":1}\r\n\n{\"b\":2}\n{\"c\"".utf8))
        #expect(splitter.next() == .line(Array("{\"a\":1}".utf8)))
        #expect(splitter.next() == .line(Array("{\"b\":2}".utf8)))
        #expect(splitter.next() == nil)
        #expect(splitter.finish() == .line(Array("{\"c\"".utf8)))
        #expect(splitter.finish() == nil)
    }

    @Test func tooLongWithAndWithoutNewline() {
        var complete = LineSplitter(maxLength: 4)
        complete.append(ArraySlice("12345\n".utf8))
        #expect(complete.next() == .tooLong)
        var unterminated = LineSplitter(maxLength: 4)
        unterminated.append(ArraySlice("1234".utf8))
        #expect(unterminated.next() == nil)
        unterminated.append(ArraySlice("5".utf8))
        #expect(unterminated.next() == .tooLong)
    }

    /// Found by FuzzControlRequest: a line of exactly the limit with `\r\n` was too long when
    /// its `\r` arrived alone, and fine when the line arrived whole.
    @Test func theCarriageReturnCountsTowardTheLimitHoweverTheBytesArrive() {
        var whole = LineSplitter(maxLength: 4)
        whole.append(ArraySlice("1234\r\n".utf8))
        #expect(whole.next() == .tooLong)
        var pieces = LineSplitter(maxLength: 4)
        pieces.append(ArraySlice("1234\r".utf8))
        #expect(pieces.next() == .tooLong)
        pieces.append(ArraySlice("\n{}\n".utf8))
        #expect(pieces.next() == .line(Array("{}".utf8)))
    }

    /// Found by FuzzControlRequest: the rest of a line reported too long came out as a
    /// line of its own when it arrived in a later read.
    @Test func theRestOfATooLongLineIsDropped() {
        var splitter = LineSplitter(maxLength: 4)
        splitter.append(ArraySlice("12345".utf8))
        #expect(splitter.next() == .tooLong)
        splitter.append(ArraySlice("67".utf8))
        #expect(splitter.next() == nil)
        splitter.append(ArraySlice("8\n{}\n".utf8))
        #expect(splitter.next() == .line(Array("{}".utf8)))
        #expect(splitter.next() == nil)
        splitter.append(ArraySlice("123456".utf8))
        #expect(splitter.next() == .tooLong)
        splitter.append(ArraySlice("7".utf8))
        #expect(splitter.finish() == nil)
    }
}
