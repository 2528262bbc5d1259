import Testing

/// docs/architecture.md's Modules table, Package.swift and the sources' imports say the same.
@Suite("The Modules table")
struct ModuleTableTests {
    /// Imports that Package.swift cannot declare, per module. `AliasBudget` reads libyaml's events
    /// through Yams' `CYaml` to refuse alias bombs before Yams composes them (composing hashes alias
    /// keys, expanded), and Yams offers no event API and no `CYaml` product.
    static let undeclarable: [String: Set<String>] = ["BridgeConfig": ["CYaml"]]

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
            let exceptions = Self.undeclarable[target.name, default: []]
            let imported = try ModuleGraph.imports(under: target.path).subtracting(exceptions)
            let documented = rows[target.name] ?? []
            differences += Self.difference(target.name, "imported but not in the table", imported, documented)
            differences += Self.difference(target.name, "in the table but not imported", documented, imported)
            differences += Self.difference(target.name, "imported but not declared", imported, target.dependencies)
            differences += Self.difference(target.name, "declared but not imported", target.dependencies, imported)
        }
        #expect(differences == [], "\n\(differences.joined(separator: "\n"))")
    }

    @Test("the undeclarable imports are still imported")
    func exceptionsAreCurrent() throws {
        let targets = try ModuleGraph.targets()
        for (module, names) in Self.undeclarable {
            let path = try #require(targets.first { $0.name == module }).path
            #expect(try ModuleGraph.imports(under: path).isSuperset(of: names), "\(module) no longer imports \(names.sorted())")
        }
    }

    /// "Module: what: names" when `left` has names `right` lacks.
    private static func difference(_ module: String, _ what: String, _ left: Set<String>, _ right: Set<String>) -> [String] {
        let missing = left.subtracting(right).sorted()
        return missing.isEmpty ? [] : ["\(module): \(what): \(missing.joined(separator: ", "))"]
    }
}
