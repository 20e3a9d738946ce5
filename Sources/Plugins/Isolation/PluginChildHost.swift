internal import CPluginChild
import Foundation
import Glibc
import Hub
import RenderCore

/// The child side of an isolated plugin node (`midihub plugin-child`, started by
/// `PluginChildWatcher`): reads its start on the control socket (descriptor 4), loads the
/// plugin from its one bundle into an in-process `LV2Node`, maps the shared region
/// (descriptor 3) and renders each block the parent hands it there, on its main thread;
/// another thread answers the parent's control requests. It dies with its parent.
/// - Thread: the child's main thread (`run`), and its control thread.
public enum PluginChildHost {
    /// Runs the child until its parent closes the control socket; the exit status.
    /// `prioritize` raises the rendering thread's priority (the daemon's render thread's).
    public static func run(parent: Int32, prioritize: () -> Void) -> Int32 {
        guard midihub_die_with_parent(parent) == 0 else { return 1 }
        let channel = PluginChildChannel(descriptor: 4)
        guard case .start(let start)? = channel.receive(PluginChildRequest.self) else { return 2 }
        let report: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data("midihub: \(line) (isolated)\n".utf8)) }
        let plugins = InstalledPlugins(bundle: start.bundle, synchronousWork: start.synchronousWork, report: report)
        let node: LV2Node
        do throws(PluginRefusal) {
            var descriptor = try plugins.descriptor(for: start.uri)
            descriptor.pluginState = start.state
            guard let made = plugins.makeInProcessNode(descriptor) else {
                throw PluginRefusal("the plugin \(start.uri) is not in \(start.bundle)", fix: "check that it is still installed")
            }
            node = made
        } catch {
            _ = channel.send(PluginChildReply(problem: error.problem, fix: error.fix))
            return 2
        }
        let format = RenderFormat(sampleRate: start.sampleRate, maxFrames: start.maxFrames)
        node.prepare(format: format)
        for (index, value) in start.controls.enumerated() where node.layout.controlInputs.contains(UInt32(index)) {
            node.controls[index] = value
        }
        guard node.isRunning else {
            _ = channel.send(PluginChildReply(problem: "it did not start at \(Int(start.sampleRate)) Hz with \(start.maxFrames)-frame blocks",
                                              fix: "try another period or sample rate, or another plugin"))
            return 2
        }
        guard let region = IsolationRegion(descriptor: 3, maxFrames: start.maxFrames, eventCapacity: start.eventCapacity) else { return 1 }
        // The last block handed to a child before: read before the parent hears this one is ready.
        let seen = midihub_load_acquire(region.request)
        guard channel.send(PluginChildReply()) else { return 1 }
        let answering = Thread { serve(channel, node: node) }
        answering.name = "midihub-plugin-control"
        answering.start()
        prioritize()
        render(region, node: node, after: seen)
    }

    /// Renders each block the parent hands over after block `seen`, for ever (the child ends
    /// with its parent or when its control socket closes).
    private static func render(_ region: IsolationRegion, node: LV2Node, after seen: UInt32) -> Never {
        var seen = seen
        while true {
            let request = midihub_load_acquire(region.request)
            guard request != seen else {
                _ = midihub_futex_wait(region.request, request, 0)
                continue
            }
            seen = request
            let frames = Int(region.frames.pointee)
            let bus = AudioBus(left: region.left, right: region.right, channelCount: Int(region.channelCount.pointee))
            let events = UnsafeBufferPointer(start: region.events, count: Int(region.eventCount.pointee))
            node.process(ProcessContext(frames: frames, events: events, bus: bus, host: region.host.pointee))
            for slot in 0..<min(node.outputs.count, OutputValues.capacity) { region.outputs[slot] = node.outputValues.load(slot) }
            midihub_store_release(region.response, seen)
            midihub_futex_wake(region.response)
        }
    }

    /// Answers the parent's control requests until it closes the socket; then the child ends.
    private static func serve(_ channel: PluginChildChannel, node: LV2Node) {
        while let request = channel.receive(PluginChildRequest.self) {
            var reply = PluginChildReply()
            do throws(PluginRefusal) {
                switch request {
                case .start: reply.problem = "the plugin runs already"
                case .state(let files): reply.text = node.ownState(files: files)
                case .setFile(let name, let path): try node.setFile(name, to: path)
                case .savePreset(let label, let values, let directory):
                    let saved = try node.savePreset(label: label, values: values, in: directory)
                    reply.preset = [saved.uri, saved.label, saved.bundle]
                }
            } catch {
                (reply.problem, reply.fix) = (error.problem, error.fix)
            }
            guard channel.send(reply) else { break }
        }
        exit(0)
    }
}
