internal import CLilv
import Foundation
import Hub
import RenderCore

/// A preset saved where other LV2 hosts find it: the bundle `lilv_state_save` writes (a
/// `pset:Preset` with its label, the control ports' values and the plugin's own state).
/// - Thread: any (a plain value).
public struct SavedPreset: Equatable, Sendable {
    public let uri: String
    public let label: String
    /// The bundle's folder.
    public let bundle: String
}

/// Saving a node's sound as a preset.
/// - Thread: control (lilv's world behind the catalog's lock; the plugin's `save` may run
///   beside `run()` on the render thread, as the LV2 state extension allows).
extension LV2Node {
    /// Saves the node's sound as a preset labelled `label` in a bundle of its own in
    /// `directory` (one that is on `LV2_PATH`): the control inputs' values — `values` by
    /// symbol, the node's own for the others — and the plugin's own state when it has any,
    /// read from the running instance. The bundle is loaded into the catalog at once, so the
    /// preset is found by its label from then on; saving a label again replaces it.
    /// - Throws: `PluginRefusal` when the instance did not start or the bundle cannot be written.
    public func savePreset(label: String, values: [String: Float], in directory: String) throws(PluginRefusal) -> SavedPreset {
        let notStarted = "it did not start"
        let bundle = (directory as NSString).appendingPathComponent(Self.bundleName(plugin: descriptor.name, label: label))
        var ports = PortValues(floatType: host.urids.id(of: LV2Vocabulary.atomFloat),
                               values: layout.controlInputsBySymbol.map { symbol, index in (symbol, values[symbol] ?? controls[Int(index)]) })
        defer { ports.storage.deallocate() }
        let failure: String? = host.withLoaded { loaded in
            // Read under the lock `prepare` and `release` change them under.
            guard let instance, let features else { return notStarted }
            let world = loaded.catalog.world
            let state = withUnsafeMutablePointer(to: &ports) { context in
                lilv_state_new_from_instance(plugin, instance, host.urids.map, nil, nil, nil, bundle, { symbol, context, size, type in
                    guard let symbol, let context else { return nil }
                    let ports = context.assumingMemoryBound(to: PortValues.self)
                    guard let index = ports.pointee.symbols.firstIndex(of: String(cString: symbol)) else { return nil }
                    size?.pointee = 4
                    type?.pointee = ports.pointee.floatType
                    return UnsafeRawPointer(ports.pointee.storage + index)
                }, context, UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue), features.features)
            }
            guard let state else { return "lilv could not read its state" }
            defer { lilv_state_free(state) }
            lilv_state_set_label(state, label)
            let bundleURI = lilv_new_file_uri(world, nil, bundle + "/")
            defer { lilv_node_free(bundleURI) }
            lilv_world_unload_bundle(world, bundleURI)
            guard lilv_state_save(world, host.urids.map, host.urids.unmap, state, nil, bundle, "preset.ttl") == 0 else {
                return "it cannot be written to \(bundle)"
            }
            lilv_world_load_bundle(world, bundleURI)
            return nil
        }
        if failure == notStarted {
            throw PluginRefusal("LV2 plugin '\(descriptor.name)' did not start, so it has no sound to save",
                                fix: "check the daemon's log for why it did not start")
        }
        if let failure {
            throw PluginRefusal("the preset '\(label)' of '\(descriptor.name)' was not saved: \(failure)",
                                fix: "make sure \(directory) is a folder you can write to")
        }
        return SavedPreset(uri: URL(fileURLWithPath: bundle).appendingPathComponent("preset.ttl").absoluteString,
                           label: label, bundle: bundle)
    }

    /// `PLUGIN_LABEL.preset.lv2`, each name with only letters, digits, '-' and '_' (as jalv
    /// and Ardour name theirs).
    static func bundleName(plugin: String, label: String) -> String {
        func clean(_ text: String) -> String {
            String(text.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" })
        }
        return "\(clean(plugin))_\(clean(label)).preset.lv2"
    }

    /// The control values a preset saves, by symbol, at stable addresses while lilv asks for them.
    private struct PortValues {
        let floatType: LV2_URID
        let symbols: [String]
        let storage: UnsafeMutablePointer<Float>

        init(floatType: LV2_URID, values: [(symbol: String, value: Float)]) {
            self.floatType = floatType
            symbols = values.map(\.symbol)
            storage = .allocate(capacity: max(values.count, 1))
            storage.initialize(from: values.map(\.value), count: values.count)
        }
    }
}
