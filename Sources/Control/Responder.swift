/// Turns one request line into one response line: decodes it, answers `hello` and
/// `subscribe`, hands everything else to the `ControlHandler`.
///
/// - Thread: control; the work of a `later` answer on the server's file thread.
struct Responder: Sendable {
    let handler: any ControlHandler
    let hello: HelloResult

    /// A response line now, or the work that makes it, to run off the server's thread.
    enum Answer {
        case now([UInt8])
        /// A request that reads a file the client named (`ControlRequest.readsFiles`): its
        /// work runs on the server's file thread, so a large or slow file holds up no
        /// other client.
        case later(@Sendable () -> [UInt8])
    }

    func answer(to line: [UInt8], from connection: ServerConnection) -> Answer {
        let (id, decoded) = ControlRequest.decode(line: line)
        switch decoded {
        case .success(.subscribe(let filter)):
            connection.subscription = filter
            return .now(encode(ControlResponse(id: id, outcome: .success(.done))))
        case .success(let request) where request.readsFiles:
            return .later { [self] in respond(to: request, id: id) }
        case .success(let request):
            return .now(respond(to: request, id: id))
        case .failure(let error):
            return .now(encode(ControlResponse(id: id, outcome: .failure(error))))
        }
    }

    private func respond(to request: ControlRequest, id: RequestID?) -> [UInt8] {
        encode(ControlResponse(id: id, outcome: Result { () throws(ControlError) in try result(for: request) }))
    }

    func lineTooLong() -> [UInt8] {
        encode(ControlResponse(id: nil, outcome: .failure(ControlError(
            .lineTooLong, "request line longer than \(ControlProtocol.maxRequestLength) bytes; closing the connection",
            fix: "send patches by path (patch.load {\"path\":…}) instead of inline text"))))
    }

    private func result(for request: ControlRequest) throws(ControlError) -> ControlResult {
        do {
            switch request {
            case .hello:
                return .hello(hello)
            case .subscribe:
                return .done  // `answer` keeps the filter with the connection
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
            case .loadPreset(let load):
                return .node(try handler.loadPreset(load))
            case .savePreset(let save):
                return .preset(try handler.savePreset(save))
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
            case .setWidget(let setting):
                return .widget(try handler.setWidget(setting.widget, to: setting.value))
            case .pressWidget(let reference):
                return .widget(try handler.pressWidget(reference.widget))
            case .releaseWidget(let reference):
                return .widget(try handler.releaseWidget(reference.widget))
            case .transport(let request):
                return .transport(try handler.transport(request))
            case .recordAudio(let request):
                return .audioRecording(try handler.recordAudio(request))
            case .networkStatus:
                return .networkSessions(try handler.networkStatus())
            case .networkConnect(let address):
                try handler.networkConnect(address.host)
                return .done
            case .networkDisconnect(let reference):
                try handler.networkDisconnect(reference.peer)
                return .done
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
