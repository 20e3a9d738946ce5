internal import CLilv
import Glibc
import RenderCore

/// A plugin's own state — what its state interface saves beside its control values (a
/// sampler's sample file) — restored into its instance and read from it: its bundle's default
/// state (`state:loadDefaultState`), the state a node carries (`NodeDescriptor.pluginState`:
/// a preset's, a saved daemon's), and the running instance's, as lilv's Turtle text. lilv
/// gives the plugin `state:mapPath`, `makePath` and `freePath` in `save` and `restore`.
extension LV2Node {
    /// The subject of a node's own state in its Turtle text.
    static let stateSubject = "urn:midihub:plugin-state"

    /// Restores the state `subject` names (the plugin's URI: its default state) into
    /// `instance`, with `features`; false when there is none.
    /// - Thread: control (before the instance runs).
    func restoreState(of subject: String, into instance: UnsafeMutablePointer<LilvInstance>,
                      features: UnsafePointer<UnsafePointer<LV2_Feature>?>) -> Bool {
        restore(into: instance, features: features) { world in
            let node = lilv_new_uri(world, subject)
            defer { lilv_node_free(node) }
            return lilv_state_new_from_world(world, host.urids.map, node)
        }
    }

    /// Restores the state in `text` (lilv's Turtle, as `ownState` gives it) into `instance`;
    /// false when lilv cannot read it. The text's subject is declared a state once more
    /// (lilv reads the first `pset:Preset` it finds, and dereferences nothing when there is
    /// none: a state file edited by hand would crash the daemon).
    /// - Thread: control (before the instance runs).
    func restoreState(text: String, into instance: UnsafeMutablePointer<LilvInstance>,
                      features: UnsafePointer<UnsafePointer<LV2_Feature>?>) -> Bool {
        let typed = text + "\n<\(Self.stateSubject)> a <http://lv2plug.in/ns/ext/presets#Preset> .\n"
        return restore(into: instance, features: features) { world in lilv_state_new_from_string(world, host.urids.map, typed) }
    }

    /// The plugin's own state, read from its running instance (the LV2 state extension lets
    /// `save` run beside `run()`), as lilv's Turtle text — the files it names linked into
    /// `files`, those it made while running (`StatePaths`) copied there, when given; `nil`
    /// when the plugin keeps no state of its own or did not start.
    /// - Thread: control (or the state writer's queue).
    public func ownState(files: String? = nil) -> String? {
        host.withLoaded { loaded in
            // Read under the lock `prepare` and `release` change them under.
            guard let instance, let features else { return nil }
            guard let state = lilv_state_new_from_instance(plugin, instance, host.urids.map, features.paths.folder, files, files, files, nil, nil,
                                                           UInt32(LV2_STATE_IS_POD.rawValue | LV2_STATE_IS_PORTABLE.rawValue),
                                                           features.features) else { return nil }
            defer { lilv_state_free(state) }
            guard lilv_state_get_num_properties(state) > 0,
                  let text = lilv_state_to_string(loaded.catalog.world, host.urids.map, host.urids.unmap, state, Self.stateSubject, nil)
            else { return nil }
            defer { lilv_free(text) }
            return String(cString: text)
        }
    }

    /// Restores the state `make` reads from lilv's world into `instance`; the control values
    /// it holds go to the node's ports.
    private func restore(into instance: UnsafeMutablePointer<LilvInstance>, features: UnsafePointer<UnsafePointer<LV2_Feature>?>,
                         _ make: (OpaquePointer) -> OpaquePointer?) -> Bool {
        let state: OpaquePointer? = host.withLoaded { loaded in make(loaded.catalog.world) }
        guard let state else { return false }
        defer { lilv_state_free(state) }
        lilv_state_restore(state, instance, { symbol, context, value, size, type in
            guard let symbol, let context, let value else { return }
            let node = Unmanaged<LV2Node>.fromOpaque(context).takeUnretainedValue()
            node.setPort(String(cString: symbol), value: value, size: size, type: type)
        }, Unmanaged.passUnretained(self).toOpaque(), 0, features)
        return true
    }
}
