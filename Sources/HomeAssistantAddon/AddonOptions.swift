import FoundationEssentials
import Support

/// The add-on's options, as Home Assistant's Supervisor writes them to `/data/options.json`. Every option
/// may be missing; an empty string counts as missing, since the add-on's form saves cleared fields as "".
public struct AddonOptions: Decodable, Sendable, Equatable {
    public var mqttServer: String?
    public var mqttUser: String?
    public var mqttPassword: String?
    public var baseTopic: String?
    public var logLevel: String?
    public var ble: Bool?
    public var bleAdapter: String?
    /// `address=key` entries, one per encrypting sensor.
    public var bleBindkeys: [String]?
    public var lifxToken: String?
    public var ev3: Bool?
    /// A Wi-Fi brick's `host[:port]`, a Bluetooth address, or a `/dev/hidraw*` or `/dev/rfcomm*` path each.
    public var ev3Bricks: [String]?
    public var bridgeID: String?
    public var room: String?
    /// The key the bridges of one home sign their cluster messages with (`cluster.secret`).
    public var clusterSecret: String?
    /// A complete config file of the user's own, used as it is instead of the options above.
    public var configFile: String?

    /// No options at all: BLE and the frontend on, the broker from the Supervisor.
    public init() {}

    /// Every option's name, as the add-on's schema and translations must list them.
    public static let names = CodingKeys.allCases.map(\.rawValue)

    enum CodingKeys: String, CodingKey, CaseIterable {
        case mqttServer = "mqtt_server", mqttUser = "mqtt_user", mqttPassword = "mqtt_password", baseTopic = "base_topic"
        case logLevel = "log_level", ble, bleAdapter = "ble_adapter", bleBindkeys = "ble_bindkeys"
        case lifxToken = "lifx_token", ev3, ev3Bricks = "ev3_bricks", bridgeID = "bridge_id", room
        case clusterSecret = "cluster_secret", configFile = "config_file"
    }

    /// Decodes what the Supervisor wrote, dropping empty strings and empty list entries.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) throws -> String? {
            let value = try container.decodeIfPresent(String.self, forKey: key)?.trimmingWhitespace()
            return value?.isEmpty == false ? value : nil
        }
        func list(_ key: CodingKeys) throws -> [String]? {
            let values = try container.decodeIfPresent([String].self, forKey: key)?
                .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
            return values?.isEmpty == false ? values : nil
        }
        mqttServer = try text(.mqttServer)
        mqttUser = try text(.mqttUser)
        mqttPassword = try container.decodeIfPresent(String.self, forKey: .mqttPassword).flatMap { $0.isEmpty ? nil : $0 }
        baseTopic = try text(.baseTopic)
        logLevel = try text(.logLevel)
        ble = try container.decodeIfPresent(Bool.self, forKey: .ble)
        bleAdapter = try text(.bleAdapter)
        bleBindkeys = try list(.bleBindkeys)
        lifxToken = try container.decodeIfPresent(String.self, forKey: .lifxToken).flatMap { $0.isEmpty ? nil : $0 }
        ev3 = try container.decodeIfPresent(Bool.self, forKey: .ev3)
        ev3Bricks = try list(.ev3Bricks)
        bridgeID = try text(.bridgeID)
        room = try text(.room)
        clusterSecret = try container.decodeIfPresent(String.self, forKey: .clusterSecret).flatMap { $0.isEmpty ? nil : $0 }
        configFile = try text(.configFile)
    }

    /// Reads `options.json`; a file that is not the options' JSON is an `AddonError`.
    public static func read(_ bytes: [UInt8], path: String) throws(AddonError) -> AddonOptions {
        do {
            return try JSONDecoder().decode(AddonOptions.self, from: Data(bytes))
        } catch {
            throw AddonError("\(path) is not the add-on's options: \(error)")
        }
    }
}

/// Why the add-on cannot start; the message says what to change.
public struct AddonError: Error, CustomStringConvertible, Equatable {
    public let description: String

    /// An error with the message the log shows.
    public init(_ description: String) { self.description = description }
}
