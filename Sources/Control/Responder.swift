/// Turns one request line into one response line: decodes it, answers `hello` and
/// `subscribe`, hands everything else to the `ControlHandler`.
///
/// - Thread: control.
struct Responder: Sendable {
    let handler: any ControlHandler
    let hello: HelloResult

    func respond(to line: [UInt8], from connection: ServerConnection) -> [UInt8] {
        let (id, decoded) = ControlRequest.decode(line: line)
        let outcome = decoded.flatMap { request in
            Result { () throws(ControlError) in try result(for: request, from: connection) }
        }
        return encode(ControlResponse(id: id, outcome: outcome))
    }

    func lineTooLong() -> [UInt8] {
        encode(ControlResponse(id: nil, outcome: .failure(ControlError(
            .lineTooLong, "request line longer than \(ControlProtocol.maxRequestLength) bytes; closing the connection",
            fix: "send patches by path (patch.load {\"path\":…}) instead of inline text"))))
    }

    private func result(for request: ControlRequest, from connection: ServerConnection) throws(ControlError)
        -> ControlResult
    {
        do {
            switch request {
            case .hello:
                return .hello(hello)
            case .subscribe(let filter):
                connection.subscription = filter
                return .done
            case .listPorts:
                return .ports(try handler.ports())
            case .listConnections:
                return .connections(try handler.connections())
            case .listNodes:
                return .nodes(try handler.nodes())
            case .listNodeTypes:
                return .nodes(try handler.nodeTypes())
            case .connect(let connection):
                try handler.connect(connection)
                return .done
            case .disconnect(let connection):
                try handler.disconnect(connection)
                return .done
            case .addNode(let spec):
                return .node(try handler.addNode(spec))
            case .removeNode(let reference):
                try handler.removeNode(reference.node)
                return .done
            case .replaceNode(let replacement):
                return .node(try handler.replaceNode(replacement.node, with: replacement.with))
            case .setParameter(let assignment):
                return .parameter(try handler.setParameter(assignment))
            case .loadPatch(let source):
                return .graph(try handler.loadPatch(source))
            case .listRules:
                return .rules(try handler.rules())
            case .setRules(let list):
                return .rules(try handler.setRules(list.rules))
            case .listMappings:
                return .mappings(try handler.mappings())
            case .setMappings(let list):
                return .mappings(try handler.setMappings(list.text))
            case .learn(let learn):
                try handler.learn(learn)
                return .done
            case .cancelLearn:
                try handler.cancelLearn()
                return .done
            case .listScenes:
                return .scenes(try handler.scenes())
            case .switchScene(let reference):
                return .scene(try handler.switchScene(reference.scene))
            case .listTriggers:
                return .triggers(try handler.triggers())
            case .fireTrigger(let reference):
                return .trigger(try handler.fireTrigger(reference.trigger))
            case .listWidgets:
                return .widgets(try handler.widgets())
            case .transport(let request):
                return .transport(try handler.transport(request))
            case .recordAudio(let request):
                return .audioRecording(try handler.recordAudio(request))
            }
        } catch let error as ControlError {
            throw error
        } catch {
            throw ControlError(.failed, String(describing: error))
        }
    }

    private func encode(_ response: ControlResponse) -> [UInt8] {
        do {
            return try JSONLine.encode(response)
        } catch {
            let failure = ControlResponse(
                id: response.id, outcome: .failure(ControlError(.failed, "cannot encode the result: \(error)")))
            // Only strings left: this encoding cannot fail.
            return (try? JSONLine.encode(failure)) ?? []
        }
    }
}
