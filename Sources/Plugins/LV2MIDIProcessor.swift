internal import CLilv
import Dispatch
import Hub
import MIDICore
import RenderCore

/// An LV2 MIDI effect (MIDI in and out, no audio: eg-fifths, x42's MIDI filters) as one of the
/// router's MIDI processors, on the MIDI input thread beside the built-in ones: each event
/// goes into the plugin's first MIDI input at frame 0 of a one-frame run, and what the plugin
/// writes to its first atom output in that run leaves at the event's own time (a fifth above a
/// note sounds on the note's frame); between events the plugin runs for the time that passed
/// (`generate`), so what it delays or makes by itself leaves at its frame on the hub's clock.
/// Its control inputs are the node's parameters, in port order. The plugin is instantiated
/// where the node is made (the control side, with the graph change) and runs at 48 kHz.
///
/// - Thread: owner (the MIDI input thread, as every processor); made on control.
public struct LV2MIDIProcessor: MIDIProcessor, @unchecked Sendable {
    public let parameterInfos: [ParameterInfo]
    private let effect: LV2MIDIEffect

    /// `parameters`: the plugin's control inputs, in port order (their defaults are the ports').
    init(_ effect: LV2MIDIEffect, parameters: [ParameterInfo]) {
        self.effect = effect
        parameterInfos = ParameterValues.numbered(parameters)
    }

    public mutating func process(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        effect.catchUp(to: event.time, parameters: parameters, into: &output)
        effect.run(event, parameters: parameters, into: &output)
    }

    /// A plugin may emit events without input (a sequencer, a note repeater): run it each turn.
    public var generates: Bool { true }

    public mutating func generate(from start: HostTime, to end: HostTime, clock: TempoClock, parameters: ParameterValues,
                                  into output: inout [TimedMIDI]) {
        effect.catchUp(to: end, parameters: parameters, into: &output)
    }
}

/// The plugin instance of an `LV2MIDIProcessor` and the memory its ports use.
/// - Thread: owner (runs); made on control; taken apart on `LV2Node.releaser`.
final class LV2MIDIEffect: @unchecked Sendable {
    static let sampleRate = 48_000.0
    /// The longest run between two events.
    static let maxFrames = 4_096

    private let instance: UnsafeMutablePointer<LilvInstance>
    private let layout: PluginCatalog.PortLayout
    private let host: InstalledPlugins
    private let features: HostFeatureSet
    private let worker: PluginWorker
    private let log: PluginLog
    private let controls: UnsafeMutablePointer<Float>
    private let atomInputs: [UnsafeMutableRawPointer]
    private let atomOutputs: [UnsafeMutableRawPointer]
    private let cv: UnsafeMutablePointer<Float>
    private let atoms: AtomSequence
    private var parser = MIDIParser()
    /// A message's bytes on their way into the input sequence (kept: no allocation per event).
    private var scratch: [UInt8] = []
    /// Messages that did not fit into the input sequence (reported when the effect goes).
    private var droppedEvents = 0
    /// Where the plugin's own time stands: frame `frames` is `origin` plus that many frames.
    private var origin: HostTime?
    private var frames: Int64 = 0

    /// Instantiates `plugin` (laid out as `layout`) and activates it; `nil` when it does not start.
    init?(name: String, plugin: OpaquePointer, layout: PluginCatalog.PortLayout, host: InstalledPlugins) {
        guard !layout.fixedBlocks else {
            host.report("LV2 plugin '\(name)' runs only fixed-length blocks, and a MIDI effect runs once per event; its node "
                        + "passes no MIDI (fix: use another plugin)")
            return nil
        }
        let format = RenderFormat(sampleRate: Self.sampleRate, maxFrames: Self.maxFrames)
        let log = PluginLog(name: name, urids: host.urids, report: host.report)
        let worker = PluginWorker(synchronous: true)
        let features = HostFeatureSet(format: format, sequenceSize: layout.atomBufferSize, fixedBlocks: false, urids: host.urids,
                                      logger: log, worker: worker, paths: StatePaths(folder: host.instanceFolder()))
        (self.log, self.worker, self.features) = (log, worker, features)
        guard let made = host.withLoaded({ _ in lilv_plugin_instantiate(plugin, Self.sampleRate, features.features) }) else {
            host.report("LV2 plugin '\(name)' did not start; its node passes no MIDI (fix: try another plugin)")
            return nil
        }
        (instance, self.layout, self.host) = (made, layout, host)
        let map = host.urids
        atoms = AtomSequence(urids: map, capacity: layout.atomBufferSize)
        scratch.reserveCapacity(256)
        controls = .allocate(capacity: max(layout.count, 1))
        controls.initialize(repeating: 0, count: max(layout.count, 1))
        for (index, value) in layout.defaults.enumerated() { controls[index] = value }
        func atomBuffer() -> UnsafeMutableRawPointer {
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: layout.atomBufferSize, alignment: 8)
            buffer.initializeMemory(as: UInt8.self, repeating: 0, count: layout.atomBufferSize)
            return buffer
        }
        atomInputs = (layout.midiInputs + layout.otherAtomInputs).map { _ in atomBuffer() }
        atomOutputs = layout.atomOutputs.map { _ in atomBuffer() }
        cv = .allocate(capacity: Self.maxFrames)
        cv.initialize(repeating: 0, count: Self.maxFrames)
        for port in layout.controlInputs + layout.controlOutputs { lilv_instance_connect_port(made, port, controls + Int(port)) }
        for (port, buffer) in zip(layout.midiInputs + layout.otherAtomInputs, atomInputs) { lilv_instance_connect_port(made, port, buffer) }
        for (port, buffer) in zip(layout.atomOutputs, atomOutputs) { lilv_instance_connect_port(made, port, buffer) }
        for port in layout.cvInputs + layout.cvOutputs + layout.audioInputs + layout.audioOutputs {
            lilv_instance_connect_port(made, port, cv)
        }
        worker.attach(made)
        lilv_instance_activate(made)
    }

    deinit {
        let dropped = droppedEvents > 0
            ? "LV2 plugin: \(droppedEvents) message(s) did not fit into its \(layout.atomBufferSize)-byte atom buffer and were left out"
            : nil
        let parts = Parts(instance: instance, worker: worker, controls: controls, atoms: atomInputs + atomOutputs, cv: cv,
                          host: host, features: features, droppedReport: dropped)
        LV2Node.releaser.async { parts.release() }
    }

    /// What an effect that went leaves to free, on `LV2Node.releaser` (off the MIDI thread,
    /// where the router lets go of its processors).
    private struct Parts: @unchecked Sendable {
        let instance: UnsafeMutablePointer<LilvInstance>
        let worker: PluginWorker
        let controls: UnsafeMutablePointer<Float>
        let atoms: [UnsafeMutableRawPointer]
        let cv: UnsafeMutablePointer<Float>
        /// Keep lilv's world (the plugin's library) and the features until the instance is freed.
        let host: InstalledPlugins
        let features: HostFeatureSet
        let droppedReport: String?

        func release() {
            if let droppedReport { host.report(droppedReport) }
            worker.stop()
            host.free(instance)
            controls.deallocate()
            atoms.forEach { $0.deallocate() }
            cv.deallocate()
            withExtendedLifetime((host, features)) {}
        }
    }

    /// Runs the plugin, without input, up to `time` (its outputs at their frames).
    func catchUp(to time: HostTime, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        guard let origin else { return }
        let target = Int64(((time - origin).seconds * Self.sampleRate).rounded(.down))
        while frames < target {
            let count = Int(min(target - frames, Int64(Self.maxFrames)))
            run(count, from: origin + HostDuration(seconds: Double(frames) / Self.sampleRate), parameters: parameters, into: &output)
            frames += Int64(count)
        }
    }

    /// Runs the plugin for one frame with `event` at frame 0: what it writes then leaves at the event's time.
    func run(_ event: TimedMIDI, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        if origin == nil { origin = event.time }
        if let first = atomInputs.first { append(event.message, to: first) }
        run(1, from: event.time, parameters: parameters, into: &output)
        frames += 1
    }

    private func run(_ count: Int, from start: HostTime, parameters: ParameterValues, into output: inout [TimedMIDI]) {
        for (index, port) in layout.controlInputs.enumerated() where index < parameters.infos.count {
            controls[Int(port)] = parameters[index]
        }
        for buffer in atomOutputs { atoms.offer(buffer) }
        worker.deliverResponses()
        lilv_instance_run(instance, UInt32(count))
        worker.endRun()
        for buffer in atomInputs { atoms.begin(buffer) }
        if let first = atomOutputs.first { read(first, from: start, into: &output) }
    }

    /// Appends `message` at frame 0 of the sequence in `buffer` (one that does not fit is left out, counted).
    private func append(_ message: MIDIMessage, to buffer: UnsafeMutableRawPointer) {
        scratch.removeAll(keepingCapacity: true)
        message.encode(into: &scratch)
        let fits = scratch.withUnsafeBytes { bytes in
            atoms.append(bytes.count, at: 0, to: buffer) { body in body.copyMemory(from: bytes.baseAddress!, byteCount: bytes.count) }
        }
        if !fits { droppedEvents += 1 }
    }

    /// The MIDI events of the sequence the plugin wrote in `buffer`, each at `start` plus its frame.
    private func read(_ buffer: UnsafeMutableRawPointer, from start: HostTime, into output: inout [TimedMIDI]) {
        atoms.forEachMIDIEvent(in: buffer) { frame, bytes in
            let time = start + HostDuration(seconds: Double(frame) / Self.sampleRate)
            parser.feed(bytes) { output.append(TimedMIDI(time: time, message: $0)) }
        }
    }
}
