public import FoundationEssentials
import Support
import Yams

/// One problem in a config file, with where it is.
public struct ConfigIssue: Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    /// Dotted key path, e.g. `mqtt.tls.ca_file`.
    public var keyPath: String
    public var message: String

    /// `file:line:column: key.path: message`.
    public var description: String {
        "\(file):\(line):\(column): \(keyPath.isEmpty ? "" : keyPath + ": ")\(message)"
    }
}

/// Every problem found in a config file.
public struct ConfigErrors: Error, Sendable, CustomStringConvertible {
    public var issues: [ConfigIssue]
    /// One issue per line.
    public var description: String { issues.map(\.description).joined(separator: "\n") }
}

/// Reads, interpolates, decodes and validates the YAML config.
public enum ConfigLoader {
    /// Loads a config file with the registered families' sections; relative `*_file` paths are resolved
    /// against its folder.
    public static func load(
        file: String, families: [FamilySection], environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigErrors) -> Configuration
    {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ConfigErrors(issues: [
                ConfigIssue(file: file, line: 1, column: 1, keyPath: "", message: "cannot read the file: \(error.localizedDescription)")
            ])
        }
        let folder = PathText.folder(of: file)
        return try parse(
            yaml: text, file: file, families: families, baseDirectory: folder.isEmpty ? "." : folder,
            environment: environment)
    }

    /// Parses config text with the registered families' sections; `file` only labels the messages.
    public static func parse(
        yaml: String, file: String, families: [FamilySection], baseDirectory: String = ".",
        environment: [String: String] = [:]
    ) throws(ConfigErrors) -> Configuration {
        if let mark = AliasBudget.overrun(in: yaml) {
            throw ConfigErrors(issues: [
                ConfigIssue(
                    file: file, line: mark.line, column: mark.column, keyPath: "",
                    message: "YAML aliases expand to more than \(AliasBudget.maxExpandedNodes) nodes (an alias bomb?); refusing to expand further")
            ])
        }
        let root: Node
        do {
            root = try Yams.compose(yaml: yaml) ?? Node.mapping(Node.Mapping([]))
        } catch {
            throw ConfigErrors(issues: [syntaxIssue(error, file: file)])
        }
        let collector = IssueCollector(baseDirectory: baseDirectory)
        let interpolated = Interpolation(environment: environment, collector: collector).apply(to: root, path: [])
        var config = Configuration()
        for family in families { config.families.set(family.settings.init()) }
        do {
            config = try YAMLDecoder().decode(
                Configuration.self, from: interpolated, userInfo: [.configIssues: collector, .configFamilies: families])
        } catch {
            collector.add(error, at: [])
        }
        Validation(collector: collector, baseDirectory: baseDirectory).check(&config)
        guard collector.issues.isEmpty else {
            let locator = NodeLocator(root: root)
            throw ConfigErrors(
                issues: collector.issues.map { issue in
                    let mark = locator.mark(for: issue.path, atKey: issue.atKey)
                    return ConfigIssue(
                        file: file, line: mark?.line ?? 1, column: mark?.column ?? 1,
                        keyPath: Self.keyPath(issue.path), message: issue.message)
                }.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return config
    }

    /// `ble.connect[0].match.name`: sequence items as `[n]` after their key.
    static func keyPath(_ path: [String]) -> String {
        var result = ""
        for component in path {
            if component.hasPrefix("Index "), Int(component.dropFirst(6)) != nil {
                result += "[\(component.dropFirst(6))]"
            } else {
                result += (result.isEmpty ? "" : ".") + component
            }
        }
        return result
    }

    private static func syntaxIssue(_ error: any Error, file: String) -> ConfigIssue {
        guard let yamlError = error as? YamlError else {
            return ConfigIssue(file: file, line: 1, column: 1, keyPath: "", message: "\(error)")
        }
        switch yamlError {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return ConfigIssue(file: file, line: mark.line, column: mark.column, keyPath: "", message: "YAML syntax: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Not the context's text: it is the whole mapping, with any password or token written in it.
            return ConfigIssue(
                file: file, line: context.mark.line, column: context.mark.column, keyPath: "",
                message: "duplicate key \(duplicates.joined(separator: ", "))")
        case .reader(let problem, let offset, _, _):
            return ConfigIssue(file: file, line: 1, column: 1, keyPath: "", message: "YAML: \(problem) at byte \(offset ?? 0)")
        default:
            // Other errors' descriptions may quote the document.
            return ConfigIssue(file: file, line: 1, column: 1, keyPath: "", message: "YAML: the file cannot be read")
        }
    }
}

/// Finds the YAML position of a key path so every message can point at it.
struct NodeLocator {
    let root: Node

    func mark(for path: [String], atKey: Bool) -> Mark? {
        var node = root
        var best = root.mark
        for (index, component) in path.enumerated() {
            // Sequence items appear in paths as `Index 3` (decoder) or `3` (interpolation).
            if let sequence = node.sequence {
                guard let position = Int(component.hasPrefix("Index ") ? String(component.dropFirst(6)) : component),
                    sequence.indices.contains(position)
                else { break }
                node = sequence[position]
                best = node.mark ?? best
                continue
            }
            guard let mapping = node.mapping,
                let pair = mapping.first(where: { $0.key.string == component })
            else { break }
            let isLast = index == path.count - 1
            best = (isLast && atKey) ? pair.key.mark : (pair.value.mark ?? pair.key.mark)
            if isLast, pair.value.mark == nil || pair.value.scalar?.string == "" { best = pair.key.mark }
            node = pair.value
        }
        return best
    }
}
