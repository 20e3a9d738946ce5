internal import CLilv
import Dispatch
import RenderCore

/// An LV2 plugin hosted as a render node: its control inputs are the node's parameters
/// (by symbol), its audio joins the graph's stereo bus (a mono port takes the mix, a mono
/// output feeds both sides), and the node's MIDI reaches its first MIDI input as atom
/// events, each at its frame of the block. A parameter change splits the block, so it too
/// takes effect at its frame. The plugin is instantiated and activated in `prepare`, on
/// the control side; `run()` is its only call on the render thread.
///
/// - Thread: any (`prepare` on control, `process` on render, as `Node` says).
public final class LV2Node: Node, @unchecked Sendable {
    public let descriptor: NodeDescriptor
    public let parameters: [ParameterInfo]
    public let outputs: [OutputInfo]
    public let outputValues = OutputValues()
    public private(set) var preparedFormat: RenderFormat?

    /// Keeps lilv's world, where `plugin` lives, and the URIDs.
    let host: InstalledPlugins
    let plugin: OpaquePointer
    let layout: PluginCatalog.PortLayout
    private let log: PluginLog
    private let position: TimePosition
    private let atoms: AtomSequence
    private let urids: (float: LV2_URID, double: LV2_URID, int: LV2_URID)
    private(set) var instance: UnsafeMutablePointer<LilvInstance>?
    private(set) var features: HostFeatureSet?
    private var worker: PluginWorker?
    /// Every port's control value, by port index (inputs written here, outputs read).
    let controls: UnsafeMutablePointer<Float>
    private var buffers: Buffers?
    /// Events (MIDI, time positions) that did not fit into an atom buffer: counted on the
    /// render thread, never blocking, and logged when the instance is released.
    private var droppedEvents = 0
    /// `patch:Set` messages on their way from the control side to the next block's start
    /// (`setFile`), and the render thread's room to take one out.
    let messages = ByteRing(capacity: 16_384, maximumMessage: PluginFileLimits.messageBytes)
    private let message = UnsafeMutableRawPointer.allocate(byteCount: PluginFileLimits.messageBytes, alignment: 8)

    /// The memory the ports are connected to, for one format's largest block.
    private struct Buffers {
        var audioOutputs: [UnsafeMutablePointer<Float>]
        var monoInput: UnsafeMutablePointer<Float>
        var silence: UnsafeMutablePointer<Float>
        var discard: UnsafeMutablePointer<Float>
        /// The first MIDI input's, then the other atom inputs', then the atom outputs'.
        var midi: UnsafeMutableRawPointer?
        var atomInputs: [UnsafeMutableRawPointer]
        var atomOutputs: [UnsafeMutableRawPointer]
        /// Those of the inputs' buffers that take `time:Position`.
        var time: [UnsafeMutableRawPointer]
        /// The first input's buffer that takes `patch:Message`s (a file property's `patch:Set`).
        var patch: UnsafeMutableRawPointer?

        init(layout: PluginCatalog.PortLayout, frames: Int) {
            func samples() -> UnsafeMutablePointer<Float> {
                let buffer = UnsafeMutablePointer<Float>.allocate(capacity: frames)
                buffer.initialize(repeating: 0, count: frames)
                return buffer
            }
            func atoms() -> UnsafeMutableRawPointer {
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: layout.atomBufferSize, alignment: 8)
                buffer.initializeMemory(as: UInt8.self, repeating: 0, count: layout.atomBufferSize)
                return buffer
            }
            audioOutputs = layout.audioOutputs.map { _ in samples() }
            (monoInput, silence, discard) = (samples(), samples(), samples())
            midi = layout.midiInputs.isEmpty ? nil : atoms()
            atomInputs = layout.midiInputs.dropFirst().map { _ in atoms() } + layout.otherAtomInputs.map { _ in atoms() }
            atomOutputs = layout.atomOutputs.map { _ in atoms() }
            let inputs = Array(layout.midiInputs.dropFirst() + layout.otherAtomInputs)
            let buffer = { [midi, atomInputs] (port: UInt32) -> UnsafeMutableRawPointer? in
                port == layout.midiInputs.first ? midi : inputs.firstIndex(of: port).map { atomInputs[$0] }
            }
            time = layout.timeInputs.compactMap(buffer)
            patch = layout.patchInputs.first.flatMap(buffer)
        }

        func free() {
            (audioOutputs + [monoInput, silence, discard]).forEach { $0.deallocate() }
            ([midi].compactMap { $0 } + atomInputs + atomOutputs).forEach { $0.deallocate() }
        }
    }

    /// - Thread: control.
    init(descriptor: NodeDescriptor, plugin: OpaquePointer, layout: PluginCatalog.PortLayout, host: InstalledPlugins) {
        self.descriptor = descriptor
        parameters = descriptor.plugin?.parameters ?? []
        outputs = descriptor.plugin?.outputs ?? []
        self.plugin = plugin
        self.layout = layout
        self.host = host
        log = PluginLog(name: descriptor.name, urids: host.urids, report: host.report)
        let map = host.urids
        position = TimePosition(urids: map)
        atoms = AtomSequence(urids: map, capacity: layout.atomBufferSize)
        urids = (map.id(of: LV2Vocabulary.atomFloat), map.id(of: LV2Vocabulary.atomDouble), map.id(of: LV2Vocabulary.atomInt))
        controls = .allocate(capacity: max(layout.count, 1))
        controls.initialize(repeating: 0, count: max(layout.count, 1))
        for (index, value) in layout.defaults.enumerated() { controls[index] = value }
    }

    /// Where nodes that went are taken apart: the plugin's `deactivate` and `cleanup`, its
    /// worker's thread joined, its buffers freed — off whichever thread let go of the node
    /// last (the MIDI input thread when a view or a program it was in is released there).
    static let releaser = DispatchQueue(label: "midihub-lv2-release", qos: .utility)

    deinit {
        let parts = Parts(instance: instance, buffers: buffers, features: features, worker: worker, controls: controls,
                          message: message, host: host, droppedReport: droppedReport)
        Self.releaser.async { parts.release() }
    }

    /// What a node that went leaves to free (`releaser`).
    private struct Parts: @unchecked Sendable {
        let instance: UnsafeMutablePointer<LilvInstance>?
        let buffers: Buffers?
        let features: HostFeatureSet?
        let worker: PluginWorker?
        let controls: UnsafeMutablePointer<Float>
        let message: UnsafeMutableRawPointer
        /// Keeps lilv's world, where the plugin's library is loaded, until the instance is freed.
        let host: InstalledPlugins
        let droppedReport: String?

        func release() {
            if let droppedReport { host.report(droppedReport) }
            worker?.stop()
            if let instance { host.free(instance) }
            buffers?.free()
            controls.deallocate()
            message.deallocate()
            withExtendedLifetime(features) {}
        }
    }

    /// The line that says how many events did not fit into the atom buffer, when some did not.
    private var droppedReport: String? {
        guard droppedEvents > 0 else { return nil }
        return "LV2 plugin '\(descriptor.name)': \(droppedEvents) event(s) did not fit into its \(layout.atomBufferSize)-byte "
            + "atom buffer and were left out (fix: send fewer events at once to this node)"
    }

    /// Instantiates the plugin for `format` and activates it (a second `prepare` for the
    /// same format deactivates and activates it again: its state starts afresh). A plugin
    /// that fails to instantiate leaves the node silent, said once in the log.
    /// - Thread: control.
    public func prepare(format: RenderFormat) {
        if let instance, preparedFormat == format {
            host.withLoaded { _ in  // not beside a `save` (`ownState`, `savePreset`): LV2's instantiation class
                lilv_instance_deactivate(instance)
                lilv_instance_activate(instance)
            }
            return
        }
        release()
        let buffers = Buffers(layout: layout, frames: format.maxFrames)
        let worker = PluginWorker(synchronous: host.synchronousWork)
        let features = HostFeatureSet(format: format, sequenceSize: layout.atomBufferSize, fixedBlocks: layout.fixedBlocks,
                                      urids: host.urids, logger: log, worker: worker, paths: StatePaths(folder: host.instanceFolder()))
        self.buffers = buffers
        host.withLoaded { _ in self.features = features }  // `ownState` reads it under the lock
        self.worker = worker
        preparedFormat = format
        if layout.powerOfTwoBlocks, format.maxFrames & (format.maxFrames - 1) != 0 {
            host.report("LV2 plugin '\(descriptor.name)' runs only blocks of a power of two frames, and the engine's are "
                        + "\(format.maxFrames); its node stays silent (fix: use a period of 64, 128, 256, 512 or 1024 frames)")
            return
        }
        let made = host.withLoaded { _ in lilv_plugin_instantiate(plugin, format.sampleRate, features.features) }
        guard let made else {
            host.report("LV2 plugin '\(descriptor.name)' did not start at \(Int(format.sampleRate)) Hz; its node stays silent "
                        + "(fix: try another sample rate, or another plugin)")
            return
        }
        for port in layout.controlInputs + layout.controlOutputs {
            lilv_instance_connect_port(made, port, controls + Int(port))
        }
        if let first = layout.midiInputs.first, let midi = buffers.midi { lilv_instance_connect_port(made, first, midi) }
        for (port, buffer) in zip(layout.midiInputs.dropFirst() + layout.otherAtomInputs, buffers.atomInputs) {
            lilv_instance_connect_port(made, port, buffer)
        }
        for (port, buffer) in zip(layout.atomOutputs, buffers.atomOutputs) { lilv_instance_connect_port(made, port, buffer) }
        worker.attach(made)
        if let uri = descriptor.plugin?.uri, layout.loadsDefaultState {
            _ = restoreState(of: uri, into: made, features: features.features)
        }
        if let text = descriptor.pluginState, !restoreState(text: text, into: made, features: features.features) {
            host.report("LV2 plugin '\(descriptor.name)': its saved state could not be read; it starts with its default state "
                        + "(fix: load a preset, or set its values again)")
        }
        host.withLoaded { _ in
            lilv_instance_activate(made)
            instance = made  // `ownState` and `savePreset` read it under the lock
        }
    }

    /// Renders the block: the plugin runs once for each stretch between parameter changes,
    /// with that stretch's MIDI events at their frames. A plugin that requires fixed blocks
    /// runs once, over the engine's whole block (a shorter one — an offline render's last —
    /// padded with silence), its parameter changes taking effect at the block's start.
    /// - Thread: render.
    public func process(_ context: ProcessContext) {
        guard let instance, let buffers, let worker, let format = preparedFormat else { return }
        let frames = context.frames, events = context.events, bus = context.bus
        let whole = layout.fixedBlocks
        if whole, frames < format.maxFrames { padInputs(bus, from: frames, to: format.maxFrames) }
        if layout.audioInputs.count == 1 {
            for frame in 0..<(whole ? format.maxFrames : frames) {
                buffers.monoInput[frame] = (bus.left[frame] + bus.right[frame]) * 0.5
            }
        }
        log.rendering = true
        var start = 0, index = 0
        while start < frames {
            var end = frames
            for scan in index..<events.count where !whole && events[scan].kind == .parameter && Int(events[scan].frame) > start {
                end = min(Int(events[scan].frame), frames)
                break
            }
            beginSequences(buffers)
            if start == 0 {
                for buffer in buffers.time where !position.append(context.host, to: buffer, capacity: layout.atomBufferSize) {
                    droppedEvents += 1
                }
                deliverMessages(to: buffers.patch)
            }
            while index < events.count {
                let event = events[index], frame = Int(event.frame)
                if event.kind == .parameter {
                    guard whole || frame <= start else { break }
                    apply(event)
                } else {
                    guard frame < end else { break }
                    append(event, at: frame - start, to: buffers.midi)
                }
                index += 1
            }
            worker.deliverResponses()
            run(instance, buffers, bus: bus, from: start, count: whole ? format.maxFrames : end - start)
            worker.endRun()
            start = end
        }
        for late in index..<events.count where events[late].kind == .parameter { apply(events[late]) }
        log.rendering = false
        mix(buffers, into: bus, frames: frames)
        for (slot, port) in layout.controlOutputs.prefix(OutputValues.capacity).enumerated() {
            outputValues.store(controls[Int(port)], at: slot)
        }
    }

    /// The `patch:Set`s waiting (`setFile`), at frame 0 of the patch input's sequence.
    /// - Thread: render.
    private func deliverMessages(to buffer: UnsafeMutableRawPointer?) {
        while let count = messages.read(into: message) {
            guard let buffer, atoms.append(atom: message, count: count, at: 0, to: buffer) else {
                droppedEvents += 1
                continue
            }
        }
    }

    /// Silence on the bus after a short block's `frames`, up to `maxFrames`: what a plugin
    /// that runs whole blocks takes in there.
    /// - Thread: render.
    private func padInputs(_ bus: AudioBus, from frames: Int, to maxFrames: Int) {
        for frame in frames..<maxFrames { bus.left[frame] = 0 }
        guard bus.channelCount == 2 else { return }
        for frame in frames..<maxFrames { bus.right[frame] = 0 }
    }

    /// Sets the control input `symbol` to a restored `value` (a float, double or int atom).
    /// - Thread: control (while a state is restored, before the instance runs).
    func setPort(_ symbol: String, value: UnsafeRawPointer, size: UInt32, type: UInt32) {
        guard let index = layout.controlInputsBySymbol[symbol] else { return }
        let number: Float? = switch (type, size) {
        case (urids.float, 4): value.load(as: Float.self)
        case (urids.double, 8): Float(value.load(as: Double.self))
        case (urids.int, 4): Float(value.load(as: Int32.self))
        default: nil
        }
        if let number { controls[Int(index)] = number }
    }

    /// - Thread: render.
    private func apply(_ event: RenderEvent) {
        guard let info = parameters.first(where: { $0.id == event.parameter }) else { return }
        controls[Int(event.parameter)] = info.clamp(event.value)
    }

    /// Empties the atom inputs and gives the atom outputs their space (a `Chunk` of their size).
    /// - Thread: render.
    private func beginSequences(_ buffers: Buffers) {
        if let midi = buffers.midi { atoms.begin(midi) }
        for buffer in buffers.atomInputs { atoms.begin(buffer) }
        for buffer in buffers.atomOutputs { atoms.offer(buffer) }
    }

    /// Appends `event` as a `midi:MidiEvent` at `frame` to the sequence in `buffer`.
    /// - Thread: render.
    private func append(_ event: RenderEvent, at frame: Int, to buffer: UnsafeMutableRawPointer?) {
        guard let buffer else { return }
        let bytes = Self.midiBytes(event)
        let fits = atoms.append(bytes.count, at: Int64(frame), to: buffer) { body in
            body.storeBytes(of: bytes.status, toByteOffset: 0, as: UInt8.self)
            body.storeBytes(of: bytes.data1, toByteOffset: 1, as: UInt8.self)
            body.storeBytes(of: bytes.data2, toByteOffset: 2, as: UInt8.self)
        }
        if !fits { droppedEvents += 1 }
    }

    /// The MIDI 1.0 bytes of a channel event (count 0 for a parameter).
    /// - Thread: render.
    private static func midiBytes(_ event: RenderEvent) -> (count: Int, status: UInt8, data1: UInt8, data2: UInt8) {
        let channel = event.channel & 0x0F
        switch event.kind {
        case .noteOff: return (3, 0x80 | channel, event.data1, event.data2)
        case .noteOn: return (3, 0x90 | channel, event.data1, event.data2)
        case .polyPressure: return (3, 0xA0 | channel, event.data1, event.data2)
        case .controlChange: return (3, 0xB0 | channel, event.data1, event.data2)
        case .programChange: return (2, 0xC0 | channel, event.data1, 0)
        case .channelPressure: return (2, 0xD0 | channel, event.data1, 0)
        case .pitchBend: return (3, 0xE0 | channel, UInt8(event.bend & 0x7F), UInt8((event.bend >> 7) & 0x7F))
        case .parameter: return (0, 0, 0, 0)
        }
    }

    /// Connects the audio ports at `start` of their buffers and runs the plugin for `count` frames.
    /// - Thread: render.
    private func run(_ instance: UnsafeMutablePointer<LilvInstance>, _ buffers: Buffers, bus: AudioBus, from start: Int, count: Int) {
        let inputs = layout.audioInputs
        for (slot, port) in inputs.enumerated() {
            let source = inputs.count == 1 ? buffers.monoInput : slot == 0 ? bus.left : slot == 1 ? bus.right : buffers.silence
            lilv_instance_connect_port(instance, port, source + start)
        }
        for (port, buffer) in zip(layout.audioOutputs, buffers.audioOutputs) { lilv_instance_connect_port(instance, port, buffer + start) }
        for port in layout.cvInputs { lilv_instance_connect_port(instance, port, buffers.silence + start) }
        for port in layout.cvOutputs { lilv_instance_connect_port(instance, port, buffers.discard + start) }
        lilv_instance_run(instance, UInt32(count))
    }

    /// The plugin's output on the bus: an instrument's or a generator's added to it, an
    /// effect's in place of it; a mono output on both sides.
    /// - Thread: render.
    private func mix(_ buffers: Buffers, into bus: AudioBus, frames: Int) {
        guard let left = buffers.audioOutputs.first else { return }
        let right = buffers.audioOutputs.count > 1 ? buffers.audioOutputs[1] : left
        let adds = descriptor.kind == .instrument || descriptor.kind == .generator
        for frame in 0..<frames {
            bus.left[frame] = adds ? bus.left[frame] + left[frame] : left[frame]
        }
        guard bus.channelCount == 2 else { return }
        for frame in 0..<frames {
            bus.right[frame] = adds ? bus.right[frame] + right[frame] : right[frame]
        }
    }

    /// Deactivates and frees the instance and its buffers.
    /// - Thread: control.
    private func release() {
        if let droppedReport {
            host.report(droppedReport)
            droppedEvents = 0
        }
        worker?.stop()
        // Taken out under the lock `ownState` and `savePreset` read them under; the features
        // outlive the instance they were given to.
        let (old, oldFeatures) = host.withLoaded { _ in
            defer { (instance, features) = (nil, nil) }
            return (instance, features)
        }
        if let old { host.free(old) }
        withExtendedLifetime(oldFeatures) {}
        buffers?.free()
        buffers = nil
        worker = nil
    }
}
