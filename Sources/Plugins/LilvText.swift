internal import CLilv

/// Reading lilv's values: a node's text or number, a node collection's URIs.
/// - Thread: control (the catalog's).
enum LilvText {
    /// `node`'s text (a URI, a literal), or `nil`.
    static func string(_ node: OpaquePointer?) -> String? {
        guard let node, let text = lilv_node_as_string(node) else { return nil }
        return String(cString: text)
    }

    /// `node`'s number, when it is one.
    static func number(_ node: OpaquePointer?) -> Float? {
        guard let node, lilv_node_is_float(node) || lilv_node_is_int(node) else { return nil }
        return lilv_node_as_float(node)
    }

    /// The texts of `nodes`, which are freed.
    static func uris(_ nodes: UnsafeMutableRawPointer?) -> [String] {
        taking(nodes) { string($0) }
    }

    /// The nodes of `nodes`, copied (each to free), and `nodes` freed.
    static func copies(_ nodes: UnsafeMutableRawPointer?) -> [OpaquePointer] {
        taking(nodes) { lilv_node_duplicate($0) }
    }

    /// What `read` makes of each node of `nodes` (`nil`s left out); `nodes` is freed.
    private static func taking<Value>(_ nodes: UnsafeMutableRawPointer?, _ read: (OpaquePointer?) -> Value?) -> [Value] {
        guard let nodes else { return [] }
        defer { lilv_nodes_free(nodes) }
        var values: [Value] = []
        var iterator = lilv_nodes_begin(nodes)
        while !lilv_nodes_is_end(nodes, iterator) {
            if let value = read(lilv_nodes_get(nodes, iterator)) { values.append(value) }
            iterator = lilv_nodes_next(nodes, iterator)
        }
        return values
    }
}

/// The URIs discovery asks lilv about, as lilv nodes of the catalog's world.
/// - Thread: control (the catalog's).
struct Terms {
    let audioPort, controlPort, cvPort, inputPort, atomPort, eventPort, midiEvent: OpaquePointer
    let integer, toggled, enumeration, logarithmic, sampleRate, unit, unitSymbol, preset, label, scalePoint, value: OpaquePointer

    init(_ world: OpaquePointer) {
        func uri(_ text: String) -> OpaquePointer { lilv_new_uri(world, text) }
        typealias V = LV2Vocabulary
        (audioPort, controlPort, cvPort, inputPort) = (uri(V.audioPort), uri(V.controlPort), uri(V.cvPort), uri(V.inputPort))
        (atomPort, eventPort, midiEvent) = (uri(V.atomPort), uri(V.eventPort), uri(V.midiEvent))
        (integer, toggled, enumeration, logarithmic) = (uri(V.integer), uri(V.toggled), uri(V.enumeration), uri(V.logarithmic))
        sampleRate = uri(V.sampleRateProperty)
        (unit, unitSymbol, preset, label) = (uri(V.unit), uri(V.unitSymbol), uri(V.preset), uri(V.label))
        (scalePoint, value) = (uri(V.scalePoint), uri(V.value))
    }

    func free() {
        for node in [audioPort, controlPort, cvPort, inputPort, atomPort, eventPort, midiEvent, integer, toggled, enumeration,
                     logarithmic, sampleRate, unit, unitSymbol, preset, label, scalePoint, value] {
            lilv_node_free(node)
        }
    }
}
