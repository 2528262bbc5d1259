import Testing

/// docs/architecture.md's Modules table, Package.swift and the sources' imports say the same.
@Suite("The Modules table")
struct ModuleTableTests {
    /// Dependencies declared for the linker only: `CSystemdStubs` answers the libsystemd calls of the static
    /// libdbus the release daemon links, so the executable links it and imports nothing from it.
    static let linkedOnly: [String: Set<String>] = ["things2mqtt": ["CSystemdStubs"]]

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
            let linked = Self.linkedOnly[target.name, default: []]
            differences += Self.difference(target.name, "in the table but not imported", documented.subtracting(linked), imported)
            differences += Self.difference(target.name, "imported but not declared", imported, target.dependencies)
            let declared = target.dependencies.subtracting(Self.linkedOnly[target.name, default: []])
            differences += Self.difference(target.name, "declared but not imported", declared, imported)
        }
        #expect(differences == [], "\n\(differences.joined(separator: "\n"))")
    }

    @Test("a dependency declared for the linker only is declared, in the table, and not imported")
    func linkedOnlyIsCurrent() throws {
        let targets = try ModuleGraph.targets()
        let rows = try ModuleGraph.documentedImports()
        for (module, names) in Self.linkedOnly {
            let target = try #require(targets.first { $0.name == module })
            #expect(target.dependencies.isSuperset(of: names), "\(module) no longer declares \(names.sorted())")
            #expect(rows[module, default: []].isSuperset(of: names), "\(module)'s row does not list \(names.sorted())")
            #expect(try ModuleGraph.imports(under: target.path).isDisjoint(with: names), "\(module) imports \(names.sorted()) now")
        }
    }

    /// "Module: what: names" when `left` has names `right` lacks.
    private static func difference(_ module: String, _ what: String, _ left: Set<String>, _ right: Set<String>) -> [String] {
        let missing = left.subtracting(right).sorted()
        return missing.isEmpty ? [] : ["\(module): \(what): \(missing.joined(separator: ", "))"]
    }
}
