import BridgeCore
import Support

/// What the add-on runs: the user's own config file, or one written from the options.
public enum AddonPlan: Equatable, Sendable {
    /// `config_file` names a complete config, used as it is; the other options are ignored.
    case userFile(String)
    /// The config written from the options, with the files that hold its secrets.
    case generated(AddonSetup)
}

/// A config written from the add-on's options.
public struct AddonSetup: Equatable, Sendable {
    /// Where the config goes and its YAML.
    public var configPath: String
    public var configText: String
    /// Files that hold secrets (path → content), so the config itself can be shown to anyone.
    public var secretFiles: [String: String]
    /// Which broker, from where, and as which user: for the log, never with a password.
    public var brokerSource: String
}

/// Turns the add-on's options into the bridge's config. The precedence is fixed and has no hidden layer: a
/// `config_file` wins over every option; otherwise `mqtt_server` in the options wins over the Supervisor's
/// broker, whose credentials are used only when the options name no server. No environment variable
/// overrides either, so what the form shows is what runs.
public enum AddonConfig {
    /// The port Home Assistant's ingress connects to (`ingress_port` in config.yaml).
    public static let ingressPort = 8099
    /// The only address ingress requests come from.
    public static let ingressProxy = "172.30.32.2"
    /// Where the user's own config files live inside the add-on (the `addon_config` folder).
    public static let userConfigFolder = "/config"

    /// Whether the broker must come from the Supervisor: only when the options name none.
    public static func needsSupervisor(_ options: AddonOptions) -> Bool {
        options.configFile == nil && options.mqttServer == nil
    }

    /// The plan for these options; `supervisor` is the Supervisor's broker when `needsSupervisor` said to ask.
    public static func plan(
        _ options: AddonOptions, supervisor: SupervisorMQTT?, data: String, port: Int = ingressPort
    ) throws(AddonError) -> AddonPlan {
        if let file = options.configFile {
            return .userFile(file.hasPrefix("/") ? file : userConfigFolder + "/" + file)
        }
        var lines = [
            "# Written by the things2mqtt add-on at every start from its options; edits here are lost.",
            "# Set config_file in the add-on's options to run a config file of your own instead.",
        ]
        var secrets: [String: String] = [:]
        let source: String
        let server: String
        let user: String?
        let password: String?
        if let given = options.mqttServer {
            (server, user, password) = (given.contains("://") ? given : "mqtt://" + given, options.mqttUser, options.mqttPassword)
            source = "the add-on's options"
        } else if let broker = supervisor {
            (server, user, password) = (broker.server, broker.username, broker.password)
            source = "the Supervisor's MQTT service" + (broker.addon.map { " (\($0))" } ?? "")
        } else {
            throw AddonError("no MQTT broker: set mqtt_server in the add-on's options or install the Mosquitto broker add-on")
        }
        lines += ["mqtt:", "  server: " + quoted(server)]
        if let user, !user.isEmpty { lines.append("  username: " + quoted(user)) }
        if let password, !password.isEmpty {
            lines.append("  password_file: " + quoted(secret("mqtt_password", password, data, &secrets)))
        }
        if let topic = options.baseTopic { lines.append("  base_topic: " + quoted(topic)) }
        if let level = options.logLevel { lines.append("log_level: " + quoted(level)) }
        lines += [
            "frontend:", "  enabled: true", "  host: \"0.0.0.0\"", "  port: \(port)",
            "  allow_from: [" + quoted(ingressProxy) + "]",
        ]
        lines += try bleLines(options, data: data, secrets: &secrets)
        if let token = options.lifxToken {
            lines += ["lifx:", "  enabled: true", "  token_file: " + quoted(secret("lifx_token", token, data, &secrets))]
        }
        lines += ev3Lines(options)
        if options.bridgeID != nil || options.room != nil {
            lines.append("cluster:")
            if let id = options.bridgeID { lines.append("  bridge_id: " + quoted(id)) }
            if let room = options.room { lines.append("  room: " + quoted(room)) }
            if let key = options.clusterSecret {
                lines.append("  secret_file: " + quoted(secret("cluster_secret", key, data, &secrets)))
            }
        }
        return .generated(
            AddonSetup(
                configPath: data + "/things2mqtt.yaml", configText: lines.joined(separator: "\n") + "\n",
                secretFiles: secrets, brokerSource: "MQTT broker \(server) from \(source), " + (user.map { "as \($0)" } ?? "without a user name")))
    }

    /// BLE is on unless switched off: the add-on's reason to exist on Home Assistant OS is the host's radio.
    private static func bleLines(_ options: AddonOptions, data: String, secrets: inout [String: String]) throws(AddonError) -> [String] {
        guard options.ble ?? true else { return ["ble:", "  enabled: false"] }
        var lines = ["ble:", "  enabled: true"]
        if let adapter = options.bleAdapter { lines.append("  adapter: " + quoted(adapter)) }
        if let entries = options.bleBindkeys {
            var file: [String] = []
            for (index, entry) in entries.enumerated() {
                let parts = entry.split(separator: "=", maxSplits: 1).map { $0.trimmingWhitespace() }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw AddonError("ble_bindkeys entry \(index + 1) is not address=key (for example A4:C1:38:02:83:F4=231d…)")
                }
                file.append(quoted(parts[0]) + ": " + quoted(parts[1]))
            }
            lines.append("  bindkeys_file: " + quoted(secret("bindkeys.yaml", file.joined(separator: "\n") + "\n", data, &secrets)))
        }
        return lines
    }

    /// EV3 is off unless switched on or bricks are listed; each brick's kind follows from how it is written.
    private static func ev3Lines(_ options: AddonOptions) -> [String] {
        guard options.ev3 ?? (options.ev3Bricks != nil) else { return [] }
        var lines = ["ev3:", "  enabled: true"]
        if let bricks = options.ev3Bricks {
            lines.append("  bricks:")
            for brick in bricks {
                let kind =
                    brick.hasPrefix("/dev/hidraw") ? "usb" : brick.hasPrefix("/dev/") ? "serial" : (try? BluetoothAddress(brick)) != nil ? "bluetooth" : "wifi"
                lines.append("    - \(kind): " + quoted(brick))
            }
        }
        return lines
    }

    /// Notes a secret's file and returns its path.
    private static func secret(_ name: String, _ value: String, _ data: String, _ secrets: inout [String: String]) -> String {
        let path = data + "/secrets/" + name
        secrets[path] = value
        return path
    }

    /// A YAML double-quoted scalar: a JSON string, whose escapes YAML reads the same way.
    static func quoted(_ text: String) -> String { JSONValue.string(text).jsonString }
}
