import Testing

/// docs/architecture.md's Modules table, Package.swift and the sources' imports say the same.
@Suite("The Modules table")
struct ModuleTableTests {
    @Test("every source target has a row and every row a target")
    func rowsMatchTargets() throws {
        let targets = Set(try ModuleGraph.targets().filter(\.isSource).map(\.name))
        let rows = Set(try ModuleGraph.documentedImports().keys)
        #expect(targets.subtracting(rows).sorted() == [], "targets without a row")
        #expect(rows.subtracting(targets).sorted() == [], "rows without a target")
    }

    @Test("each row's Imports are what the module imports and declares")
    func importsMatch() throws {
        let rows = try ModuleGraph.documentedImports()
        var differences: [String] = []
        for target in try ModuleGraph.targets() where target.isSource {
            let imported = try ModuleGraph.imports(under: target.path)
            let documented = rows[target.name] ?? []
            differences += Self.difference(target.name, "imported but not in the table", imported, documented)
            differences += Self.difference(target.name, "in the table but not imported", documented, imported)
            differences += Self.difference(target.name, "imported but not declared", imported, target.dependencies)
            differences += Self.difference(target.name, "declared but not imported", target.dependencies, imported)
        }
        #expect(differences == [], "\n\(differences.joined(separator: "\n"))")
    }

    /// "Module: what: names" when `left` has names `right` lacks.
    private static func difference(_ module: String, _ what: String, _ left: Set<String>, _ right: Set<String>) -> [String] {
        let missing = left.subtracting(right).sorted()
        return missing.isEmpty ? [] : ["\(module): \(what): \(missing.joined(separator: ", "))"]
    }
}
