internal import CLilv
import RenderCore

/// A plugin's saved sound restored into its instance: its default state (`state:state` in
/// its bundle, which `state:loadDefaultState` asks the host to load) — the values of its
/// control ports, and the plugin's own state (a sampler's sample file).
/// - Thread: control (before the instance runs).
extension LV2Node {
    /// Restores the state `subject` names (the plugin's URI: its default state) into
    /// `instance`, with `features`; false when there is none.
    func restoreState(of subject: String, into instance: UnsafeMutablePointer<LilvInstance>,
                      features: UnsafePointer<UnsafePointer<LV2_Feature>?>) -> Bool {
        let state: OpaquePointer? = host.withLoaded { loaded in
            let node = lilv_new_uri(loaded.catalog.world, subject)
            defer { lilv_node_free(node) }
            return lilv_state_new_from_world(loaded.catalog.world, host.urids.map, node)
        }
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
