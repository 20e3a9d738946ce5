import Foundation
import RenderCore
import Testing
import TestSupport

/// A documented knob table — `| name | range | unit | default | what it does |` rows under a
/// heading — checked against a node's parameters: every knob listed, in the order
/// `nodes --types` lists them, each with its range, unit and default, and what it does.
enum KnobTable {
    /// Expects the table under `heading` in `page` to be exactly `knobs`.
    static func expectDocuments(_ knobs: ArraySlice<ParameterInfo>, under heading: String, in page: String) throws {
        let lines = try Repository.text(page).components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: heading), "no '\(heading)' in \(page)")
        let rows = lines[start...].drop { !$0.hasPrefix("|") }.prefix { $0.hasPrefix("|") }.dropFirst(2)
            .map { $0.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) } }
        var documented: [String] = []
        for row in rows {
            try #require(row.count == 5, "\(row)")
            let name = try #require(row[0].firstMatch(of: /^`([^`]+)`$/)?.output.1).description
            documented.append(name)
            let info = try #require(knobs.first { $0.name == name }, "the node has no knob '\(name)'")
            let range = row[1].replacingOccurrences(of: "−", with: "-").firstMatch(of: /^(-?[0-9.]+)…(-?[0-9.]+)$/)
            #expect(range.flatMap { Float($0.output.1) } == info.range.lowerBound
                    && range.flatMap { Float($0.output.2) } == info.range.upperBound, "the range of '\(name)': \(row[1])")
            #expect(row[2] == info.unit.rawValue, "the unit of '\(name)' is \(info.unit.rawValue), not \(row[2])")
            #expect(Float(row[3].replacingOccurrences(of: "−", with: "-")) == info.defaultValue, "the default of '\(name)'")
            #expect(!row[4].isEmpty, "what '\(name)' does")
        }
        #expect(documented == knobs.map(\.name), "every knob, in the order `nodes --types` lists them")
    }
}
