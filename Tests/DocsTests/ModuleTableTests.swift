import TestSupport
import Foundation
import Testing

/// docs/architecture.md's module table says what each module imports: the same modules of
/// this package as its target's dependencies in Package.swift, no more and no fewer (other
/// packages' products, such as Yams or SwiftNIO, are named in words and not checked).
@Suite struct ModuleTableTests {
    /// Each target of Package.swift (not the tests') and the targets of this package it depends on.
    static func packageTargets() throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let products = try Regex(#"\.product\([^)]*\)"#)
        var targets: [String: Set<String>] = [:]
        let target = try Regex(#"^(?:target|executableTarget|systemLibrary)\(\s*name:\s*"(\w+)"(?:,\s*dependencies:\s*\[([^\]]*)\])?"#)
        // One declaration each, up to the next; the tests' targets and their helpers left out.
        let declarations = manifest.split(separator: try Regex(#"\n\s*\.(?=(?:target|testTarget|executableTarget|systemLibrary)\()"#))
        for declaration in declarations where !declaration.contains("path: \"Tests/") {
            guard let match = declaration.firstMatch(of: target), let name = match.output[1].substring else { continue }
            let dependencies = match.output[2].substring.map { String($0).replacing(products, with: "") } ?? ""
            targets[String(name)] = Set(dependencies.matches(of: try Regex(#""(\w+)""#)).compactMap { $0.output[1].substring.map(String.init) })
        }
        return targets
    }

    /// Each row of the table: the module and the modules of `known` its imports column names.
    static func tableRows(known: Set<String>) throws -> [String: Set<String>] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let section = text.components(separatedBy: "## Modules")[1].components(separatedBy: "\n## ")[0]
        var rows: [String: Set<String>] = [:]
        for line in section.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let named = cells[3].matches(of: try Regex(#"`(\w+)`"#)).compactMap { $0.output[1].substring.map(String.init) }
            rows[module] = Set(named.filter(known.contains))
        }
        return rows
    }

    @Test func theTableNamesEachTargetsDependencies() throws {
        let targets = try Self.packageTargets()
        #expect(targets.count > 20, "Package.swift's targets were not found")
        let rows = try Self.tableRows(known: Set(targets.keys))
        for (name, dependencies) in targets.sorted(by: { $0.key < $1.key }) {
            guard let row = rows[name] else {
                Issue.record("docs/architecture.md's module table has no row for \(name)")
                continue
            }
            #expect(row == dependencies, "\(name): the table names \(row.sorted()), Package.swift \(dependencies.sorted())")
        }
        for name in rows.keys where targets[name] == nil {
            Issue.record("docs/architecture.md's module table names \(name), which Package.swift does not have")
        }
    }
}
