import AudioHost
import Foundation
import Hub
import MIDICore
import RenderCore

/// The daemon's audio side: the render engine played by an `AudioDriver`, and the render
/// nodes of the graph's instruments and effects. A graph change is compiled on the control
/// side into a new `RenderProgram` and swapped in; nodes that did not change keep their
/// instance (and their sounding voices).
///
/// The program sums the instruments into one bus and runs the effects on the sum, in the
/// graph's order (RenderCore programs are one chain).
///
/// - Thread: control, under the daemon's lock (`live` pushes are serialized by it too).
final class AudioRack {
    let driver: AudioDriver
    private let engine = RenderEngine()
    private let catalog: NodeCatalog
    private var instances: [NodeID: any Node] = [:]
    /// Program index of each unit node of the running program.
    private(set) var indices: [NodeID: UInt16] = [:]
    /// Parameter values set so far, by node and name (the rest are at their defaults).
    private var values: [NodeID: [String: Float]] = [:]

    init(driver: AudioDriver, catalog: NodeCatalog) {
        self.driver = driver
        self.catalog = catalog
    }

    /// Compiles `graph`, installs it, and starts the render thread on the first call.
    /// - Returns: a warning to log (realtime priority refused), if any.
    func install(_ graph: HubGraph, stopped: [GraphNode]) throws -> String? {
        for node in stopped { instances[node.id] = nil }
        let units = graph.topologicalOrder.compactMap { graph.node($0) }.compactMap { node -> (NodeID, NodeDescriptor)? in
            guard case .unit(let descriptor) = node.body else { return nil }
            return (node.id, descriptor)
        }
        let ordered = units.filter { $0.1.kind != .effect } + units.filter { $0.1.kind == .effect }
        var nodes: [any Node] = []
        var newIndices: [NodeID: UInt16] = [:]
        for (id, descriptor) in ordered {
            guard let instance = instances[id] ?? catalog.makeNode(descriptor) else { continue }
            instances[id] = instance
            newIndices[id] = UInt16(nodes.count)
            nodes.append(instance)
        }
        instances = instances.filter { newIndices[$0.key] != nil }
        values = values.filter { newIndices[$0.key] != nil }
        engine.install(RenderProgram(nodes: nodes, format: driver.renderFormat))
        indices = newIndices
        for node in graph.nodes where values[node.id] == nil {
            values[node.id] = [:]
            for (name, value) in node.parameters { setParameter(node.id, name, to: value) }
        }
        guard !driver.isRunning else { return nil }
        if case .denied(let warning) = try driver.start(engine: engine) { return warning }
        return nil
    }

    /// Fades out the voices of `nodes` (All Sound Off: the synth's short release fade) and
    /// waits until that has been rendered, so a swap that drops them does not click.
    func fadeOut(_ nodes: [NodeID]) {
        let targets = nodes.compactMap { indices[$0] }
        guard !targets.isEmpty else { return }
        for index in targets {
            for channel in 0..<UInt8(16) { driver.live.push(.controlChange(channel: channel, controller: 120, value: 0), node: index) }
        }
        let blockSeconds = Double(driver.blockFrames) / Double(driver.settings.sampleRate)
        usleep(UInt32((3 * blockSeconds + 0.01) * 1e6))
    }

    /// The parameters of unit `id` with their current values.
    func parameters(of id: NodeID) -> [(info: ParameterInfo, value: Float)]? {
        guard let infos = instances[id]?.parameters else { return nil }
        return infos.map { ($0, values[id]?[$0.name] ?? $0.defaultValue) }
    }

    /// Sends a parameter change to unit `id` through the live ring.
    /// - Returns: the value set (clamped), or `nil` when the node or parameter is unknown.
    @discardableResult
    func setParameter(_ id: NodeID, _ name: String, to value: Float) -> Float? {
        guard let index = indices[id], let info = instances[id]?.parameters.first(where: { $0.name == name }) else { return nil }
        let clamped = info.clamp(value)
        values[id, default: [:]][name] = clamped
        driver.live.push(.parameter(node: index, id: info.id, value: clamped))
        return clamped
    }

    /// Plays `message` on unit `id`, stamped with its arrival time (seconds, monotonic clock).
    func play(_ message: MIDIMessage, on id: NodeID, at time: Double) {
        guard let index = indices[id] else { return }
        driver.live.push(message, node: index, arrival: UInt64(max(0, time) * 1e9))
    }

    /// Fades out and closes the device.
    func stop() throws {
        try driver.stop()
    }
}
