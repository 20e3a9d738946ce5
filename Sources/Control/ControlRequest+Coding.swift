/// Reads and writes request lines: `{"id":1,"request":"nodes.remove","params":{"node":"lead"}}`.
extension ControlRequest {
    /// Decodes one request line. The id is returned whenever it could be read, also
    /// when the request itself is refused, so the error response can echo it.
    ///
    /// - Thread: any.
    static func decode(line: [UInt8]) -> (id: RequestID?, request: Result<ControlRequest, ControlError>) {
        let header: RequestHeader
        do {
            header = try JSONLine.decode(RequestHeader.self, from: line)
        } catch {
            return (nil, .failure(headerError(error)))
        }
        guard let name = header.request else {
            return (header.id, .failure(ControlError(
                .badRequest, "missing field 'request'", fix: #"send {"id":1,"request":"ports.list"}"#)))
        }
        guard let kind = ControlRequestKind(rawValue: name) else {
            return (header.id, .failure(ControlError(
                .unknownRequest, "unknown request '\(name)'",
                fix: "send one of " + ControlRequestKind.allCases.map(\.rawValue).joined(separator: ", "))))
        }
        do {
            return (header.id, .success(try decode(kind, from: line)))
        } catch let error as DecodingError {
            return (header.id, .failure(ControlError(
                .badParams, "\(name): \(error.summary)", fix: "see docs/control-protocol.md for '\(name)'")))
        } catch {
            return (header.id, .failure(ControlError(.badParams, "\(name): \(error)")))
        }
    }

    private static func decode(_ kind: ControlRequestKind, from line: [UInt8]) throws -> ControlRequest {
        func params<Params: Decodable>(_ type: Params.Type) throws -> Params {
            try JSONLine.decode(ParamsEnvelope<Params>.self, from: line).params
        }
        switch kind {
        case .hello: return .hello(try params(Hello.self))
        case .listPorts: return .listPorts
        case .listConnections: return .listConnections
        case .listNodes: return .listNodes
        case .listNodeTypes: return .listNodeTypes
        case .connect: return .connect(try params(ConnectionSummary.self))
        case .disconnect: return .disconnect(try params(ConnectionSummary.self))
        case .addNode: return .addNode(try params(NodeSpec.self))
        case .removeNode: return .removeNode(try params(NodeReference.self))
        case .replaceNode: return .replaceNode(try params(NodeReplacement.self))
        case .setParameter: return .setParameter(try params(ParameterAssignment.self))
        case .loadPreset: return .loadPreset(try params(PresetLoad.self))
        case .savePreset: return .savePreset(try params(PresetSave.self))
        case .loadPatch: return .loadPatch(try params(PatchSource.self))
        case .listRules: return .listRules
        case .setRules: return .setRules(try params(RuleList.self))
        case .listMappings: return .listMappings
        case .setMappings: return .setMappings(try params(MappingList.self))
        case .learn: return .learn(try params(LearnRequest.self))
        case .cancelLearn: return .cancelLearn
        case .listScenes: return .listScenes
        case .switchScene: return .switchScene(try params(SceneReference.self))
        case .listTriggers: return .listTriggers
        case .fireTrigger: return .fireTrigger(try params(TriggerReference.self))
        case .listWidgets: return .listWidgets
        case .setWidget: return .setWidget(try params(WidgetSetting.self))
        case .pressWidget: return .pressWidget(try params(WidgetReference.self))
        case .releaseWidget: return .releaseWidget(try params(WidgetReference.self))
        case .transport: return .transport(try params(TransportRequest.self))
        case .recordAudio: return .recordAudio(try params(AudioRecordRequest.self))
        case .networkStatus: return .networkStatus
        case .networkConnect: return .networkConnect(try params(NetworkPeerAddress.self))
        case .networkDisconnect: return .networkDisconnect(try params(NetworkPeerReference.self))
        case .subscribe:
            let filter = try JSONLine.decode(OptionalParamsEnvelope<SubscriptionFilter>.self, from: line).params
            return .subscribe(filter ?? SubscriptionFilter())
        }
    }

    private static func headerError(_ error: any Error) -> ControlError {
        let example = #"one JSON object per line, e.g. {"id":1,"request":"ports.list"}"#
        guard let error = error as? DecodingError else {
            return ControlError(.badJSON, "not valid JSON: \(error)", fix: "send " + example)
        }
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
            return ControlError(.badJSON, "not valid JSON", fix: "send " + example)
        }
        if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
            return ControlError(.badRequest, "a request must be a JSON object", fix: "send " + example)
        }
        return ControlError(.badRequest, error.summary, fix: "send " + example)
    }

    /// The request as one line, newline included.
    ///
    /// - Thread: any.
    func encodedLine(id: RequestID) throws -> [UInt8] {
        func line(_ params: (some Encodable)?) throws -> [UInt8] {
            try JSONLine.encode(RequestEnvelope(id: id, request: kind.rawValue, params: params))
        }
        switch self {
        case .listPorts, .listConnections, .listNodes, .listNodeTypes, .listRules, .listMappings, .cancelLearn, .listScenes,
             .listTriggers, .listWidgets, .networkStatus:
            return try line(NoParams?.none)
        case .hello(let hello): return try line(hello)
        case .connect(let connection), .disconnect(let connection): return try line(connection)
        case .addNode(let spec): return try line(spec)
        case .removeNode(let reference): return try line(reference)
        case .replaceNode(let replacement): return try line(replacement)
        case .setParameter(let assignment): return try line(assignment)
        case .loadPreset(let load): return try line(load)
        case .savePreset(let save): return try line(save)
        case .loadPatch(let source): return try line(source)
        case .setRules(let rules): return try line(rules)
        case .setMappings(let list): return try line(list)
        case .learn(let learn): return try line(learn)
        case .switchScene(let scene): return try line(scene)
        case .fireTrigger(let trigger): return try line(trigger)
        case .setWidget(let setting): return try line(setting)
        case .pressWidget(let widget), .releaseWidget(let widget): return try line(widget)
        case .transport(let transport): return try line(transport)
        case .recordAudio(let request): return try line(request)
        case .networkConnect(let address): return try line(address)
        case .networkDisconnect(let peer): return try line(peer)
        case .subscribe(let filter): return try line(filter)
        }
    }
}

private struct RequestHeader: Decodable {
    var id: RequestID?
    var request: String?
}

private struct ParamsEnvelope<Params: Decodable>: Decodable {
    var params: Params
}

private struct OptionalParamsEnvelope<Params: Decodable>: Decodable {
    var params: Params?
}

private struct RequestEnvelope<Params: Encodable>: Encodable {
    var id: RequestID
    var request: String
    var params: Params?
}

/// The `params` of requests that take none; never written.
private struct NoParams: Encodable {}
