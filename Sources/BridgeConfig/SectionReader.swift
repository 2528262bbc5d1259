import FoundationEssentials
import Support

/// A problem found while reading the config, located by its key path.
struct PathIssue {
    var path: [String]
    var message: String
    /// Point at the key rather than its value (unknown keys).
    var atKey = false
}

/// Collects every problem instead of stopping at the first, so one run shows them all.
public final class IssueCollector {
    var issues: [PathIssue] = []
    /// Where relative `*_file` paths start: the config file's folder.
    let baseDirectory: String

    init(baseDirectory: String = ".") { self.baseDirectory = baseDirectory }

    /// The collector a config decoder reports to (a fresh one outside the loader).
    public static func of(_ decoder: any Decoder) -> IssueCollector {
        decoder.userInfo[.configIssues] as? IssueCollector ?? IssueCollector()
    }

    /// Records a problem at a key path (`atKey` points at the key rather than its value).
    public func add(_ path: [String], _ message: String, atKey: Bool = false) {
        issues.append(PathIssue(path: path, message: message, atKey: atKey))
    }

    /// Records a decoding error where it happened.
    public func add(_ error: any Error, at path: [String]) {
        guard let decodingError = error as? DecodingError else {
            add(path, String(describing: error))
            return
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            add(context.codingPath.map(\.stringValue), "expected \(Self.describe(type))")
        case .valueNotFound(let type, let context):
            add(context.codingPath.map(\.stringValue), "expected \(Self.describe(type)), found nothing")
        case .keyNotFound(let key, let context):
            add(context.codingPath.map(\.stringValue) + [key.stringValue], "is required")
        case .dataCorrupted(let context):
            add(context.codingPath.map(\.stringValue), context.debugDescription)
        @unknown default:
            add(path, String(describing: decodingError))
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is String.Type: "text"
        // A scalar type asked of a list or a mapping.
        case is YAMLScalar.Type: "a single value, not a list or mapping"
        case is [YAMLNode].Type: "a list"
        default:
            String(describing: type).hasPrefix("Dictionary") || String(describing: type).hasPrefix("KeyedDecoding")
                ? "a mapping of keys to values" : "a value of type \(type)"
        }
    }
}

extension CodingUserInfoKey {
    /// Where section decoders find the shared issue collector.
    static let configIssues = CodingUserInfoKey(rawValue: "things2mqtt.config.issues")!
}

/// A coding key for any string, used to spot unknown keys.
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// Reads one mapping section: reports unknown keys, and turns each field's decoding error into an
/// issue while falling back to the default, so the rest of the file is still checked.
public struct SectionReader<Key: CodingKey & CaseIterable> {
    /// The section's keyed container, for keys that need more than a value (null, presence).
    public let container: KeyedDecodingContainer<Key>
    /// Where problems go.
    public let collector: IssueCollector
    /// The section's key path.
    public let path: [String]

    /// Opens a section, reporting every key that `Key` does not list.
    public init(_ decoder: any Decoder, keys: Key.Type) throws {
        collector = decoder.userInfo[.configIssues] as? IssueCollector ?? IssueCollector()
        path = decoder.codingPath.map(\.stringValue)
        let all = try decoder.container(keyedBy: AnyKey.self)
        let known = Key.allCases.map(\.stringValue)
        for key in all.allKeys where !known.contains(key.stringValue) {
            collector.add(
                path + [key.stringValue], "unknown key (expected one of: \(known.joined(separator: ", ")))",
                atKey: true)
        }
        container = try decoder.container(keyedBy: Key.self)
    }

    /// The field's value, or `fallback` when absent, null or invalid (invalid is recorded).
    public func value<T: Decodable>(_ key: Key, default fallback: T) -> T {
        optional(key) ?? fallback
    }

    /// The field's value, or nil when absent, null or invalid (invalid is recorded).
    public func optional<T: Decodable>(_ key: Key) -> T? {
        do {
            return try container.decodeIfPresent(T.self, forKey: key)
        } catch {
            collector.add(error, at: path + [key.stringValue])
            return nil
        }
    }

    /// Records a problem with a field's value.
    public func problem(_ key: Key, _ message: String) {
        collector.add(path + [key.stringValue], message)
    }
}

extension SectionReader {
    /// A secret from its inline key or its `_file` sibling (read relative to the config file, trimmed).
    public func secret(_ key: Key, file fileKey: Key) -> Secret? {
        let inline: Secret? = optional(key)
        guard let file: String = optional(fileKey) else { return inline }
        if inline != nil {
            problem(fileKey, "set \(key.stringValue) or \(fileKey.stringValue), not both")
            return inline
        }
        let resolved = file.hasPrefix("/") ? file : collector.baseDirectory + "/" + file
        guard let text = try? String(contentsOfFile: resolved, encoding: .utf8) else {
            problem(fileKey, "cannot read \(file)")
            return nil
        }
        return Secret(text.trimmingWhitespace())
    }
}

extension SectionReader {
    /// A YAML file of text values by text key (`bindkeys_file`), read relative to the config file; nil when the
    /// key is absent, or the file is unreadable or no such mapping (reported at the key, without its content,
    /// which may be secret).
    public func textMapFile(_ fileKey: Key) -> [String: String]? {
        guard let file: String = optional(fileKey) else { return nil }
        let resolved = file.hasPrefix("/") ? file : collector.baseDirectory + "/" + file
        guard let text = try? String(contentsOfFile: resolved, encoding: .utf8) else {
            problem(fileKey, "cannot read \(file)")
            return nil
        }
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text)
        } catch {
            problem(fileKey, "\(file) is not valid YAML")
            return nil
        }
        guard let pairs = root?.pairs else {
            problem(fileKey, "\(file) is not a mapping of keys to values")
            return nil
        }
        var result: [String: String] = [:]
        for pair in pairs {
            guard let name = pair.key.scalar?.text, let entry = pair.value.scalar?.text else {
                problem(fileKey, "\(file): every key and value must be text")
                return nil
            }
            result[name] = entry
        }
        return result
    }
}

