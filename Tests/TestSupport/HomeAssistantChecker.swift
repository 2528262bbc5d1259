public import BridgeCore
import Foundation

/// Runs discovery payloads through `Tests/ha-schema/validate.py`, i.e. through a real Home Assistant's own
/// discovery schemas and template engine, in the venv `Tests/ha-schema/setup.sh <release>` made.
public enum HomeAssistantChecker {
    /// The Home Assistant releases a checker exists for.
    public enum Release: String, Sendable, CaseIterable {
        /// 2024.1.6: the payloads of `homeassistant.legacy: true`.
        case legacy = "2024"
        /// 2025.4.4: the default payloads.
        case current = "2025"

        /// The version the venv holds.
        public var version: String { self == .legacy ? "2024.1.6" : "2025.4.4" }

        /// The venv, moved by `HA2024_VENV` / `HA2025_VENV` as `setup.sh` does.
        public var venv: String {
            let variable = "HA\(rawValue)_VENV"
            return ProcessInfo.processInfo.environment[variable] ?? "/opt/ha\(rawValue)"
        }
    }

    /// What the checker said.
    public struct Report: Sendable {
        /// validate.py's exit status: 0 all accepted, 1 something rejected, 2 unusable input or no venv.
        public var status: Int32
        /// Its output: a `# Home Assistant <version>` line, then `OK <topic>` or `REJECTED <topic>: <why>` per item.
        public var output: String

        /// The topics Home Assistant accepted.
        public var accepted: [String] {
            output.split(separator: "\n").filter { $0.hasPrefix("OK ") }.map { String($0.dropFirst(3)) }
        }

        /// Warnings and errors Home Assistant logged while taking the configs in (deprecated keys, say).
        public var logged: [String] {
            output.split(separator: "\n").filter { $0.hasPrefix("  warning:") || $0.hasPrefix("  error:") }.map(String.init)
        }

        /// The lines of rejected items.
        public var rejected: [String] {
            output.split(separator: "\n").filter { $0.hasPrefix("REJECTED ") }.map(String.init)
        }
    }

    /// A message for an `event` entity's state topic: the event type Home Assistant must fire for it (nil: none at
    /// all) and, when given, the attributes the event must carry.
    public struct EventSample: Sendable {
        public var payload: JSONValue
        public var expect: String?
        public var attributes: [String: JSONValue]?

        /// Creates a sample.
        public init(_ payload: JSONValue, fires expect: String?, attributes: [String: JSONValue]? = nil) {
            self.payload = payload
            self.expect = expect
            self.attributes = attributes
        }
    }

    /// One item for validate.py: a discovery config, with sample states to render through its value templates
    /// (and, optionally, the value each must render to), command values with the payload each must become, and
    /// messages to deliver to an `event` entity with the event each must fire.
    public static func item(
        topic: String, payload: JSONValue, states: [(JSONValue, String?)] = [], commands: [(JSONValue, String?)] = [],
        events: [EventSample] = []
    ) -> JSONValue {
        var item: [String: JSONValue] = ["topic": .string(topic), "payload": payload]
        if !events.isEmpty {
            item["events"] = .array(events.map { sample in
                var entry: [String: JSONValue] = ["payload": sample.payload, "expect": sample.expect.map(JSONValue.string) ?? .null]
                entry["attributes"] = sample.attributes.map(JSONValue.object)
                return .object(entry)
            })
        }
        if !states.isEmpty {
            item["states"] = .array(states.map { state, expect in
                var sample: [String: JSONValue] = ["payload": state]
                sample["expect"] = expect.map(JSONValue.string)
                return .object(sample)
            })
        }
        if !commands.isEmpty {
            item["commands"] = .array(commands.map { value, expect in
                var sample: [String: JSONValue] = ["value": value]
                sample["expect"] = expect.map(JSONValue.string)
                return .object(sample)
            })
        }
        return .object(item)
    }

    /// Checks the items with the given release. A missing venv is an error here; the tests that call this skip
    /// outside Tests/run.sh through `.needs(.homeAssistant)`.
    public static func check(_ items: [JSONValue], with release: Release) async throws -> Report {
        guard FileManager.default.isExecutableFile(atPath: release.venv + "/bin/python") else {
            throw TestFailure(
                "Home Assistant \(release.version) checker missing at \(release.venv): run Tests/ha-schema/setup.sh \(release.rawValue)")
        }
        let folder = try TemporaryDirectory(prefix: "ha-schema")
        defer { folder.remove() }
        let file = try folder.write("discovery.json", JSONValue.array(items).jsonString)
        let script = BridgeProcess.packageRoot + "/Tests/ha-schema/validate.py"
        let child = try ChildProcess(
            executable: release.venv + "/bin/python", arguments: [script, "--ha", release.rawValue, "--verbose", file],
            stdoutPath: folder.file("out.txt"), stderrPath: folder.file("out.txt"))
        let status = try await child.waitForExit(timeout: .seconds(150))
        let report = Report(status: status, output: child.stdout)
        guard report.output.contains("# Home Assistant \(release.version),") else {
            throw TestFailure("validate.py did not run Home Assistant \(release.version) (status \(status)):\n\(report.output)")
        }
        return report
    }
}
