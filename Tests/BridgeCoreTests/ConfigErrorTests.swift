import TestSupport
import BridgeConfig
import Testing

/// A config snippet and the one issue it must produce.
struct ConfigErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var yaml: String
    var line: Int
    var column: Int
    var keyPath: String
    var message: String
    var testDescription: String { name }
}

@Suite("Config errors carry line, column and key path")
struct ConfigErrorTests {
    static let cases: [ConfigErrorCase] = [
        .init(
            name: "unknown top-level section", yaml: "mqtt:\n  server: mqtt://localhost:1883\nzigbee:\n  port: 1\n",
            line: 3, column: 1, keyPath: "zigbee", message: "unknown key (expected one of: mqtt, homeassistant"),
        .init(
            name: "unknown key in mqtt", yaml: "mqtt:\n  server: mqtt://localhost:1883\n  basetopic: x\n",
            line: 3, column: 3, keyPath: "mqtt.basetopic", message: "unknown key (expected one of: server, base_topic"),
        .init(name: "wrong type", yaml: "mqtt:\n  qos: high\n", line: 2, column: 8, keyPath: "mqtt.qos", message: "expected a whole number"),
        .init(name: "qos out of range", yaml: "mqtt:\n  qos: 3\n", line: 2, column: 8, keyPath: "mqtt.qos", message: "must be 0, 1 or 2"),
        .init(
            name: "bad duration", yaml: "mqtt:\n  keepalive: 10 parsecs\n", line: 2, column: 14, keyPath: "mqtt.keepalive",
            message: "\"10 parsecs\" is not a duration"),
        .init(
            name: "keepalive too short", yaml: "mqtt:\n  keepalive: 2s\n", line: 2, column: 14, keyPath: "mqtt.keepalive",
            message: "must be between 5s and 65535s"),
        .init(
            name: "bad server URL", yaml: "mqtt:\n  server: http://broker:1883\n", line: 2, column: 11, keyPath: "mqtt.server",
            message: "is not a broker URL"),
        .init(
            name: "base topic with a wildcard", yaml: "mqtt:\n  base_topic: home/+/t2m\n", line: 2, column: 15,
            keyPath: "mqtt.base_topic", message: "must not contain +, # or NUL"),
        .init(
            name: "unsupported MQTT version", yaml: "mqtt:\n  version: 7\n", line: 2, column: 12, keyPath: "mqtt.version",
            message: "is not a supported MQTT version"),
        .init(
            name: "password without username", yaml: "mqtt:\n  password: hunter2\n", line: 2, column: 13,
            keyPath: "mqtt.password", message: "a password needs a username"),
        .init(
            name: "missing environment variable", yaml: "mqtt:\n  username: bridge\n  password: ${T2M_TEST_MISSING_ENV}\n",
            line: 3, column: 13, keyPath: "mqtt.password", message: "environment variable T2M_TEST_MISSING_ENV is not set"),
        .init(
            name: "alias with +", yaml: "devices:\n  lifx_d073d5000001:\n    alias: kitchen+1\n", line: 3, column: 12,
            keyPath: "devices.lifx_d073d5000001.alias", message: "\"kitchen+1\" must not contain + or #"),
        .init(
            name: "alias with #", yaml: "devices:\n  lifx_d073d5000001:\n    alias: 'kitchen#1'\n", line: 3, column: 12,
            keyPath: "devices.lifx_d073d5000001.alias", message: "must not contain + or #"),
        .init(
            name: "alias with leading /", yaml: "devices:\n  lifx_d073d5000001:\n    alias: /kitchen\n", line: 3, column: 12,
            keyPath: "devices.lifx_d073d5000001.alias", message: "must not start or end with /"),
        .init(
            name: "alias bridge", yaml: "devices:\n  lifx_d073d5000001:\n    alias: bridge\n", line: 3, column: 12,
            keyPath: "devices.lifx_d073d5000001.alias", message: "must not be or start with bridge"),
        .init(
            name: "duplicate alias",
            yaml: "devices:\n  lifx_d073d5000001:\n    alias: kitchen\n  lifx_d073d5000002:\n    alias: kitchen\n",
            line: 5, column: 12, keyPath: "devices.lifx_d073d5000002.alias",
            message: "\"kitchen\" is already the alias of lifx_d073d5000001"),
        .init(
            name: "alias that is another device's id",
            yaml: "devices:\n  lifx_d073d5000001:\n    alias: lifx_d073d5000002\n  lifx_d073d5000002: {}\n",
            line: 3, column: 12, keyPath: "devices.lifx_d073d5000001.alias", message: "is the id of another device (lifx_d073d5000002)"),
        .init(
            name: "bad device id", yaml: "devices:\n  lifx-d073d5000001:\n    alias: kitchen\n", line: 2, column: 3,
            keyPath: "devices.lifx-d073d5000001", message: "is not a device id"),
        .init(
            name: "unknown integration in device id", yaml: "devices:\n  zigbee_0x1234:\n    alias: kitchen\n", line: 2, column: 3,
            keyPath: "devices.zigbee_0x1234", message: "is not a device id"),
        .init(
            name: "unknown key in a device", yaml: "devices:\n  lifx_d073d5000001:\n    friendly_name: kitchen\n", line: 3,
            column: 5, keyPath: "devices.lifx_d073d5000001.friendly_name", message: "unknown key"),
        .init(
            name: "bad log level", yaml: "log_level: loud\n", line: 1, column: 12, keyPath: "log_level",
            message: "\"loud\" is not a log level"),
        .init(
            name: "bad discovery prefix", yaml: "homeassistant:\n  discovery_prefix: ha/\n", line: 2, column: 21,
            keyPath: "homeassistant.discovery_prefix", message: "must not start or end with /"),
        .init(
            name: "LIFX without a token", yaml: "lifx:\n  enabled: true\n", line: 2, column: 3, keyPath: "lifx.token",
            message: "needs a token"),
        .init(
            name: "unreadable password file", yaml: "mqtt:\n  username: u\n  password_file: /nonexistent/t2m-secret\n",
            line: 3, column: 18, keyPath: "mqtt.password_file", message: "cannot read /nonexistent/t2m-secret"),
        .init(
            name: "YAML syntax error", yaml: "mqtt:\n  server: [mqtt://localhost\nlog_level: info\n", line: 3, column: 10,
            keyPath: "", message: "YAML syntax"),
        .init(
            name: "bad indentation", yaml: "mqtt:\n  server: mqtt://localhost\n   base_topic: x\n", line: 3, column: 14,
            keyPath: "", message: "YAML syntax"),
        .init(
            name: "duplicate key", yaml: "mqtt:\n  qos: 1\n  qos: 2\n", line: 2, column: 3, keyPath: "",
            message: "duplicate key qos"),
        .init(
            name: "alias bomb", yaml: ConfigAliasTests.billionLaughs, line: 5, column: 8, keyPath: "",
            message: "YAML aliases expand to more than 10000 nodes"),
    ]

    @Test("one issue per snippet", arguments: cases)
    func reportsIssue(_ testCase: ConfigErrorCase) throws {
        let issues = try issues(testCase.yaml)
        #expect(issues.count == 1, "\(issues)")
        let issue = try #require(issues.first)
        #expect(issue.file == "test.yaml")
        #expect(issue.line == testCase.line, "\(issue)")
        #expect(issue.column == testCase.column, "\(issue)")
        #expect(issue.keyPath == testCase.keyPath, "\(issue)")
        #expect(issue.message.contains(testCase.message), "\(issue)")
        #expect(issue.description.hasPrefix("test.yaml:\(issue.line):\(issue.column): "))
    }

    @Test("no error quotes a secret written in the file", arguments: [
        "mqtt:\n  username: u\n  password: hunter2-secret\n  password: hunter2-secret\n",
        "mqtt:\n  username: u\n  password: [hunter2-secret]\n",
        "lifx:\n  token: {a: hunter2-secret}\n",
        "mqtt:\n  username: u\n  password: \"hunter2-secret\n",
        "lifx:\n  token: hunter2-secret\n   bad: 1\n",
        "ble:\n  bindkeys:\n    \"A4:C1:38:02:83:F4\": hunter2-secret\n",
        "ble:\n  bindkeys:\n    \"A4:C1:38:02:83:F4\": e9ea\n    \"A4:C1:38:02:83:F4\": hunter2-secret\n",
    ])
    func secretsNotQuoted(yaml: String) throws {
        let found = try issues(yaml)
        #expect(!found.isEmpty)
        for issue in found { #expect(!issue.description.contains("hunter2"), "\(issue)") }
    }

    @Test("every problem in a file is reported, in one pass")
    func severalIssues() throws {
        let yaml = """
            mqtt:
              server: ftp://broker
              qos: high
              keepalive: forever
              colour: blue
            devices:
              lifx_d073d5000001:
                alias: a+b
              not-an-id: {}
            log_level: loud
            extra: 1

            """
        let found = try issues(yaml)
        let paths = Set(found.map(\.keyPath))
        #expect(
            paths == [
                "mqtt.server", "mqtt.qos", "mqtt.keepalive", "mqtt.colour", "devices.lifx_d073d5000001.alias",
                "devices.not-an-id", "log_level", "extra",
            ], "\(found)")
        #expect(found.count == 8, "\(found)")
        let lines = Dictionary(found.map { ($0.keyPath, $0.line) }, uniquingKeysWith: { first, _ in first })
        #expect(lines["mqtt.server"] == 2)
        #expect(lines["mqtt.qos"] == 3)
        #expect(lines["mqtt.keepalive"] == 4)
        #expect(lines["mqtt.colour"] == 5)
        #expect(lines["devices.lifx_d073d5000001.alias"] == 8)
        #expect(lines["devices.not-an-id"] == 9)
        #expect(lines["log_level"] == 10)
        #expect(lines["extra"] == 11)
    }

    private func issues(_ yaml: String) throws -> [ConfigIssue] {
        do {
            _ = try ConfigLoader.parse(yaml: yaml, file: "test.yaml", environment: [:])
        } catch {
            return error.issues
        }
        Issue.record("the config was accepted")
        return []
    }
}
