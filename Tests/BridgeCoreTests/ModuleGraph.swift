import Foundation
import TestSupport

/// The package's targets as Package.swift declares them, read as text: enough of the manifest's
/// shape (`.target(name: …, dependencies: […], path: …)`) to compare it with the sources and the docs.
struct ManifestTarget: Equatable {
    let name: String
    let kind: String
    /// Project targets and product names it depends on.
    let dependencies: Set<String>
    let path: String

    /// Targets built from `Sources/`: everything but tests and their support library.
    var isSource: Bool { kind != "testTarget" && path.hasPrefix("Sources/") }
}

/// Reading the manifest, the imports of a target's sources and the Modules table of docs/architecture.md.
enum ModuleGraph {
    static var root: String { BridgeProcess.packageRoot }

    /// Modules of the toolchain, which the package does not declare and the table does not list.
    static let toolchainModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "Glibc", "Musl", "Darwin", "Dispatch",
        "Synchronization", "Swift", "_Concurrency", "os",
    ]

    /// Every target of Package.swift, in order.
    static func targets() throws -> [ManifestTarget] {
        let text = try String(contentsOfFile: root + "/Package.swift", encoding: .utf8)
        let start = try Regex(#"\.(target|executableTarget|systemLibrary|testTarget)\("#)
        return text.matches(of: start).map { match in
            let kind = String(text[match.range].dropFirst().dropLast())
            let body = balanced(text[...], from: text.index(before: match.range.upperBound), open: "(", close: ")")
            let name = firstCapture(#"name:\s*"([^"]+)""#, in: body) ?? ""
            let path = firstCapture(#"path:\s*"([^"]+)""#, in: body) ?? "Sources/\(name)"
            return ManifestTarget(name: name, kind: kind, dependencies: dependencies(in: body), path: path)
        }
    }

    /// The names in a target's `dependencies: [...]`: plain target names and `.product(name:)`s.
    static func dependencies(in body: Substring) -> Set<String> {
        guard let label = body.range(of: "dependencies:"),
              let bracket = body[label.upperBound...].firstIndex(of: "[")
        else { return [] }
        var list = String(balanced(body, from: bracket, open: "[", close: "]"))
        var names = Set<String>()
        let product = try! Regex(#"\.product\(\s*name:\s*"([^"]+)"[^)]*\)"#)
        for match in list.matches(of: product) { names.insert(String(match.output[1].substring ?? "")) }
        list.replace(product, with: "")
        for match in list.matches(of: try! Regex(#""([^"]+)""#)) { names.insert(String(match.output[1].substring ?? "")) }
        return names
    }

    /// The target `name` and every project target it depends on, directly or through others.
    static func closure(of name: String) throws -> [ManifestTarget] {
        let targets = try targets()
        var found: [ManifestTarget] = []
        var pending = [name]
        while let next = pending.popLast() {
            guard !found.contains(where: { $0.name == next }), let target = targets.first(where: { $0.name == next }) else { continue }
            found.append(target)
            pending += target.dependencies
        }
        return found
    }

    /// What the Swift files under `path` import, toolchain modules left out.
    static func imports(under path: String) throws -> Set<String> {
        try allImports(under: path).subtracting(toolchainModules)
    }

    /// What the Swift files under `path` import, toolchain modules included.
    static func allImports(under path: String) throws -> Set<String> {
        let folder = URL(fileURLWithPath: root + "/" + path)
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        let line = try Regex(
            #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+(?:(?:class|struct|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
        ).anchorsMatchLineEndings()
        var found = Set<String>()
        for case let file as URL in walker where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: line) { found.insert(String(match.output[1].substring ?? "")) }
        }
        return found
    }

    /// The Modules table: each row's module and the names of its Imports column ("—" for none).
    static func documentedImports() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: root + "/docs/architecture.md", encoding: .utf8)
        var rows: [String: Set<String>] = [:]
        var inSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inSection = line == "## Modules" }
            guard inSection, line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 4 else { continue }
            let module = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let names = cells[3].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "—" }
            rows[module] = Set(names)
        }
        return rows
    }

    /// The text between the bracket at `index` and its partner.
    private static func balanced(_ text: Substring, from index: String.Index, open: Character, close: Character) -> Substring {
        var depth = 0
        var cursor = index
        while cursor < text.endIndex {
            if text[cursor] == open { depth += 1 }
            if text[cursor] == close {
                depth -= 1
                if depth == 0 { return text[text.index(after: index)..<cursor] }
            }
            cursor = text.index(after: cursor)
        }
        return text[text.index(after: index)...]
    }

    private static func firstCapture(_ pattern: String, in text: Substring) -> String? {
        guard let match = try? Regex(pattern).firstMatch(in: text) else { return nil }
        return match.output[1].substring.map(String.init)
    }
}
