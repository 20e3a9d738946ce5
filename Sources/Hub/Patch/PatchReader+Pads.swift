/// `pads:` — a pad matrix: rows × columns of a controller's pads, each firing a trigger
/// (docs/mappings.md#pad-matrix). Read into one mapping per pad, with feedback when asked.
/// - Thread: any (a plain value).
extension PatchReader {
    /// The mappings of the pad matrix in `value`, for a patch with these nodes and triggers.
    func pads(_ value: YAMLNode, nodes: [GraphNode], triggers: [Trigger]) throws(PatchError) -> [Mapping] {
        let fields = try mapping(value, "pads")
        try expectKeys(fields, ["from", "channel", "first note", "columns", "triggers", "feedback"])
        guard let rowsNode = fields["triggers"], let firstNode = fields["first note"] else {
            throw error(at: value, "pads need `first note` and `triggers` (rows of trigger names)",
                        fix: "write `pads: { first note: 36, triggers: [[panic, tap tempo]] }`")
        }
        let first = Int(try note(firstNode))
        var grid: [[String?]] = []
        for rowNode in try sequence(rowsNode, "triggers") {
            var row: [String?] = []
            for cell in try sequence(rowNode, "a row of pads") {
                if cell.scalar?.string == "~" || cell.scalar?.string == "" || cell.null != nil { row.append(nil); continue }
                let name = try string(cell, "a trigger name")
                guard triggers.contains(where: { $0.name == name }) else {
                    throw error(at: cell, "no trigger '\(name)'", fix: "use one of \(triggers.map(\.name).joined(separator: ", ")), or ~ for no trigger")
                }
                row.append(name)
            }
            grid.append(row)
        }
        let columns = try fields["columns"].map { node throws(PatchError) in try integer(node, in: 1...16, "columns") }
            ?? (grid.map(\.count).max() ?? 1)
        guard grid.allSatisfy({ $0.count <= columns }), first + grid.count * columns <= 128 else {
            throw error(at: rowsNode, "the pads do not fit: \(grid.count) rows of \(columns) from note \(first)",
                        fix: "give at most `columns` triggers per row, and a first note that leaves room up to 127")
        }
        var template = Mapping(source: .note(0), mode: .button(.momentary), targets: [])
        if let from = fields["from"] {
            let id = try string(from, "a source node")
            guard nodes.contains(where: { if case .source = $0.body { $0.id == id } else { false } }) else {
                throw error(at: from, "pads from '\(id)': no source node of that name", fix: "name a node with `source:`")
            }
            template.from = id
        }
        if let channel = fields["channel"] { template.channel = UInt8(try integer(channel, in: 1...16, "a channel") - 1) }
        if let feedback = fields["feedback"] {
            guard let on = feedback.bool else { throw error(at: feedback, "feedback must be true or false", fix: "write `feedback: true`") }
            guard !on || template.from != nil else {
                throw error(at: feedback, "feedback needs `from`: the source node of the pads' controller", fix: "add `from: NODE`")
            }
            template.feedback = on
        }
        var mappings: [Mapping] = []
        for (row, names) in grid.enumerated() {
            for (column, name) in names.enumerated() {
                guard let name else { continue }
                var pad = template
                pad.source = .note(UInt8(first + row * columns + column))
                pad.targets = [MappingTarget(node: Patch.triggerNode, parameter: name, low: 0, high: 1)]
                mappings.append(pad)
            }
        }
        return mappings
    }
}
