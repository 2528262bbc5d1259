public import FoundationEssentials
import Support

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
                ConfigIssue(file: file, line: 1, column: 1, keyPath: "", message: "cannot read the file: \(Self.reason(error))")
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
        let root: YAMLNode
        do {
            root = try YAMLComposer.compose(yaml) ?? .mapping([], .start)
        } catch {
            throw ConfigErrors(issues: [
                ConfigIssue(file: file, line: error.mark.line, column: error.mark.column, keyPath: "", message: error.message)
            ])
        }
        let collector = IssueCollector(baseDirectory: baseDirectory)
        let interpolated = Interpolation(environment: environment, collector: collector).apply(to: root, path: [])
        var config = Configuration()
        for family in families { config.families.set(family.settings.init()) }
        do {
            config = try NodeDecoder.decode(
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
                        file: file, line: mark.line, column: mark.column,
                        keyPath: Self.keyPath(issue.path), message: issue.message)
                }.sorted { ($0.line, $0.column) < ($1.line, $1.column) })
        }
        return config
    }

    /// Why a file could not be read, in words (FoundationEssentials' errors have no localized description).
    static func reason(_ error: any Error) -> String {
        guard let error = error as? CocoaError else { return String(describing: error) }
        switch error.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission: return "permission denied"
        case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "not UTF-8 text"
        default: return "error \(error.code.rawValue)"
        }
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
}

/// Finds the YAML position of a key path so every message can point at it.
struct NodeLocator {
    let root: YAMLNode

    func mark(for path: [String], atKey: Bool) -> YAMLMark {
        var node = root
        var best = root.mark
        for (index, component) in path.enumerated() {
            // Sequence items appear in paths as `Index 3` (decoder) or `3` (interpolation).
            if let sequence = node.items {
                guard let position = Int(component.hasPrefix("Index ") ? String(component.dropFirst(6)) : component),
                    sequence.indices.contains(position)
                else { break }
                node = sequence[position]
                best = node.mark
                continue
            }
            guard let pair = node.pairs?.first(where: { $0.key.scalar?.text == component }) else { break }
            let isLast = index == path.count - 1
            best = (isLast && atKey) ? pair.key.mark : pair.value.mark
            if isLast, pair.value.scalar?.text == "" { best = pair.key.mark }
            node = pair.value
        }
        return best
    }
}
