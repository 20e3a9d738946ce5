internal import CLilv
import Foundation
import Hub
import RenderCore
import Synchronization

/// The LV2 plugins of this system as node types and render nodes: the directory patches
/// and `nodes.add` find a plugin in (by URI or name), and the maker of `LV2Node`s. The
/// bundles are read the first time a plugin is asked for (a moment: Debian's few hundred
/// plugins), not when the daemon starts.
///
/// - Thread: control (lilv's world behind a lock; never asked on the MIDI or render thread).
public final class InstalledPlugins: PluginDirectory, @unchecked Sendable {
    struct Loaded: @unchecked Sendable {
        let catalog: PluginCatalog
        var descriptors: [String: NodeDescriptor] = [:]
    }

    private let searchPath: String?
    /// The one bundle folder read instead of the search path (an isolated plugin's child).
    private let bundle: String?
    private let loaded = Mutex<Loaded?>(nil)
    /// Whether and how plugin nodes run in child processes of their own.
    public let isolation: PluginIsolation
    /// Where isolated nodes tell of their children's ends and restarts (the daemon publishes
    /// them); set once the daemon's log is up.
    private let childEvents = Mutex<(@Sendable (IsolatedPluginNode, PluginChildEvent) -> Void)?>(nil)
    /// The render thread's share of each block that isolated nodes may wait for, together.
    let blockBudget = IsolationBudget()
    /// The URIDs every plugin of the process shares.
    let urids = URIDMap()
    /// Where plugins' log lines go.
    let report: @Sendable (String) -> Void
    /// Whether a plugin's worker does its work at once, inside `schedule_work` (rendering
    /// offline), rather than on a thread of its own (live).
    let synchronousWork: Bool
    /// Where each instance's own folder for the files it makes while it runs goes
    /// (`StatePaths`): a folder of this process's under the temporary directory.
    let scratchFolder = (NSTemporaryDirectory() as NSString).appendingPathComponent("midihub-plugin-files-\(getpid())")

    /// A new folder for one instance's files (`state:makePath`), not made until it makes one.
    func instanceFolder() -> String {
        (scratchFolder as NSString).appendingPathComponent(UUID().uuidString)
    }

    /// The plugins on `LV2_PATH` (or in the folders of `searchPath`), logging to `report`;
    /// `synchronousWork` for offline rendering.
    public init(searchPath: String? = nil, synchronousWork: Bool = false, isolation: PluginIsolation = PluginIsolation(),
                report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.searchPath = searchPath
        bundle = nil
        self.synchronousWork = synchronousWork
        self.isolation = isolation
        self.report = report
    }

    /// The plugins of the one bundle in the folder `bundle`: an isolated plugin's child.
    init(bundle: String, synchronousWork: Bool, report: @escaping @Sendable (String) -> Void) {
        searchPath = nil
        self.bundle = bundle
        self.synchronousWork = synchronousWork
        isolation = PluginIsolation()
        self.report = report
    }

    /// Sends the isolated nodes' news (a child gone, restarted, given up) to `handler`.
    /// - Thread: control.
    public func onChildEvent(_ handler: @escaping @Sendable (IsolatedPluginNode, PluginChildEvent) -> Void) {
        childEvents.withLock { $0 = handler }
    }

    /// - Thread: an isolated node's watcher.
    func tell(_ node: IsolatedPluginNode, _ event: PluginChildEvent) {
        childEvents.withLock { $0 }?(node, event)
    }

    public func descriptor(for reference: String) throws(PluginRefusal) -> NodeDescriptor {
        let result: Result<NodeDescriptor, PluginRefusal> = withLoaded { loaded in
            do throws(PluginLookupError) {
                let summary = try loaded.catalog.plugin(named: reference)
                if let known = loaded.descriptors[summary.uri] { return .success(known) }
                do throws(PluginRefusal) {
                    let descriptor = try loaded.catalog.descriptor(of: summary)
                    loaded.descriptors[summary.uri] = descriptor
                    return .success(descriptor)
                } catch {
                    return .failure(error)
                }
            } catch {
                return .failure(error.refusal)
            }
        }
        return try result.get()
    }

    public func presetState(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> String? {
        guard let uri = descriptor.plugin?.uri else {
            throw PluginRefusal("node type '\(descriptor.name)' is no LV2 plugin: it has no presets", fix: "set its parameters instead")
        }
        let result: Result<String?, PluginRefusal> = withLoaded { loaded in
            do throws(PluginRefusal) {
                return .success(try loaded.catalog.presetState(of: uri, preset: preset, map: urids.map, unmap: urids.unmap,
                                                               subject: LV2Node.stateSubject))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    public func presetValues(of descriptor: NodeDescriptor, preset: String) throws(PluginRefusal) -> [String: Float] {
        guard let uri = descriptor.plugin?.uri else {
            throw PluginRefusal("node type '\(descriptor.name)' is no LV2 plugin: it has no presets", fix: "set its parameters instead")
        }
        let floatType = urids.id(of: LV2Vocabulary.atomFloat)
        let result: Result<[String: Float], PluginRefusal> = withLoaded { loaded in
            do throws(PluginRefusal) {
                return .success(try loaded.catalog.presetValues(of: uri, preset: preset, map: urids.map, floatType: floatType))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// A new, unprepared node hosting the plugin `descriptor` names (instantiated when
    /// prepared), or nil when it is no plugin of this system.
    /// A node isolated (`NodeDescriptor.isolated`, else `isolation.byDefault`) runs the
    /// plugin in a child process (`IsolatedPluginNode`).
    public func makeNode(_ descriptor: NodeDescriptor) -> (any PluginNode)? {
        guard let uri = descriptor.plugin?.uri else { return nil }
        let found: (plugin: OpaquePointer, layout: PluginCatalog.PortLayout, bundle: String?)? = withLoaded { loaded in
            guard let plugin = loaded.catalog.handles[uri], let layout = loaded.catalog.layout(of: uri) else { return nil }
            return (plugin, layout, loaded.catalog.bundleFolder(of: plugin))
        }
        guard let found else { return nil }
        if descriptor.isolated ?? isolation.byDefault, let bundle = found.bundle {
            return IsolatedPluginNode(descriptor: descriptor, bundle: bundle, layout: found.layout, host: self)
        }
        return LV2Node(descriptor: descriptor, plugin: found.plugin, layout: found.layout, host: self)
    }

    /// An in-process node for the plugin `descriptor` names, isolated or not (the child's own).
    func makeInProcessNode(_ descriptor: NodeDescriptor) -> LV2Node? {
        var inProcess = descriptor
        inProcess.isolated = false
        return makeNode(inProcess) as? LV2Node
    }

    /// Reads the preset bundle a child saved into this process's catalog too, so that its
    /// label finds it here.
    func loadBundle(_ folder: String) {
        withLoaded { loaded in loaded.catalog.loadBundle(folder) }
    }

    /// The MIDI processor running the MIDI effect `descriptor` hosts (`LV2MIDIProcessor`),
    /// instantiated now; `nil` when it is no plugin of this system or does not start.
    public func makeProcessor(_ descriptor: NodeDescriptor) -> (any MIDIProcessor)? {
        guard let identity = descriptor.plugin else { return nil }
        let found: (plugin: OpaquePointer, layout: PluginCatalog.PortLayout)? = withLoaded { loaded in
            guard let plugin = loaded.catalog.handles[identity.uri], let layout = loaded.catalog.layout(of: identity.uri) else { return nil }
            return (plugin, layout)
        }
        guard let found, let effect = LV2MIDIEffect(name: descriptor.name, plugin: found.plugin, layout: found.layout, host: self) else {
            return nil
        }
        return LV2MIDIProcessor(effect, parameters: identity.parameters)
    }

    /// Saves the sound of a node of plugin `descriptor` as a preset labelled `label`, where
    /// other LV2 hosts find it (`presetDirectory`): `values` (the node's parameters, by
    /// symbol) and the plugin's own state, read from `running` — the node's instance in the
    /// running program — or, when the node has none (no audio plays), from an instance made
    /// for the purpose (the plugin's own state then is its default).
    /// - Throws: `PluginRefusal` when it is no plugin of this system or the preset cannot be written.
    public func savePreset(of descriptor: NodeDescriptor, label: String, values: [String: Float],
                           running: (any Node)?) throws(PluginRefusal) -> SavedPreset {
        let directory = presetDirectory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw PluginRefusal("cannot make the preset folder \(directory): \(error.localizedDescription)",
                                fix: "make it yourself, or put a folder you can write to first on LV2_PATH")
        }
        if let node = running as? any PluginNode, node.isRunning {
            return try node.savePreset(label: label, values: values, in: directory)
        }
        guard let node = makeInProcessNode(descriptor) else {
            throw PluginRefusal("'\(descriptor.name)' is no LV2 plugin of this system", fix: "run 'midihub plugins' to see them")
        }
        node.prepare(format: RenderFormat(sampleRate: 48_000, maxFrames: 512))
        return try node.savePreset(label: label, values: values, in: directory)
    }

    /// Where presets are saved: the first folder of `LV2_PATH` (the search path given, or
    /// the environment's) when it is set, else `~/.lv2`, which lilv, jalv, Ardour and Carla
    /// all read.
    public var presetDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let path = searchPath ?? environment["LV2_PATH"]
        if let first = path?.split(separator: ":").first, !first.isEmpty { return String(first) }
        // $HOME, as lilv expands `~/.lv2` (Foundation's home directory is the password file's).
        return ((environment["HOME"] ?? NSHomeDirectory()) as NSString).appendingPathComponent(".lv2")
    }

    /// Runs `body` with the catalog (read now if it was not yet), under the lock: lilv's
    /// world is not shared between threads.
    /// Deactivates and frees `instance` under the world's lock: freeing the last instance of
    /// a library closes it, which changes lilv's list of loaded libraries, as instantiating
    /// another plugin on another thread does — unguarded, one thread's new instance could get
    /// a library the other had just unloaded.
    /// - Thread: any (the release queue, or control).
    func free(_ instance: UnsafeMutablePointer<LilvInstance>) {
        withLoaded { _ in
            lilv_instance_deactivate(instance)
            lilv_instance_free(instance)
        }
    }

    func withLoaded<Value>(_ body: (inout Loaded) -> Value) -> Value {
        loaded.withLock { loaded in
            if loaded == nil { loaded = Loaded(catalog: bundle.map(PluginCatalog.init(bundle:)) ?? PluginCatalog(searchPath: searchPath)) }
            return body(&loaded!)
        }
    }
}
