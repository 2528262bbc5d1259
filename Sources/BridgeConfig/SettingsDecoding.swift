import BLEFormats
import BLEModels
import BridgeCore
public import Logging
import Support

extension Configuration: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case mqtt, homeassistant, devices, logLevel = "log_level", lifx, ble, ev3
    }

    /// Decodes the root mapping.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        mqtt = reader.value(.mqtt, default: MQTTSettings())
        homeassistant = reader.value(.homeassistant, default: HomeAssistantSettings())
        let rawDevices: [String: DeviceSettings] = reader.value(.devices, default: [:])
        for (key, settings) in rawDevices {
            guard let id = DeviceID(key) else {
                reader.collector.add(
                    ["devices", key], "\"\(key)\" is not a device id (expected lifx_<id>, ble_<mac>, ev3_<serial>)",
                    atKey: true)
                continue
            }
            devices[id] = settings
        }
        if let level: String = reader.optional(.logLevel) {
            if let parsed = Logger.Level(configName: level) {
                logLevel = parsed
            } else {
                reader.problem(.logLevel, "\"\(level)\" is not a log level (trace, debug, info, notice, warning, error)")
            }
        }
        lifx = reader.value(.lifx, default: LIFXSettings())
        ble = reader.value(.ble, default: BLESettings())
        ev3 = reader.value(.ev3, default: EV3Settings())
    }
}

extension Logger.Level {
    /// Parses a level as written in config files and requests (`warn` accepted for `warning`).
    public init?(configName: String) {
        let name = configName.lowercased()
        self.init(rawValue: name == "warn" ? "warning" : name)
    }
}

extension MQTTSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case server, baseTopic = "base_topic", clientID = "client_id", username, password
        case passwordFile = "password_file", keepalive, qos, version, tls
    }

    /// Decodes the `mqtt` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        server = reader.value(.server, default: server)
        baseTopic = reader.value(.baseTopic, default: baseTopic)
        clientID = reader.optional(.clientID)
        username = reader.optional(.username)
        password = reader.optional(.password)
        passwordFile = reader.optional(.passwordFile)
        keepalive = reader.value(.keepalive, default: keepalive)
        qos = reader.value(.qos, default: qos)
        if let text: String = reader.optional(.version) {
            switch text {
            case "3.1.1", "4", "311": version = .v311
            case "5", "5.0": version = .v5
            default: reader.problem(.version, "\"\(text)\" is not a supported MQTT version (4 for 3.1.1, or 5)")
            }
        }
        tls = reader.optional(.tls)
    }
}

extension TLSSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case caFile = "ca_file", certFile = "cert_file", keyFile = "key_file", insecure
    }

    /// Decodes `mqtt.tls`.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        caFile = reader.optional(.caFile)
        certFile = reader.optional(.certFile)
        keyFile = reader.optional(.keyFile)
        insecure = reader.value(.insecure, default: false)
    }
}

extension HomeAssistantSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, discoveryPrefix = "discovery_prefix", statusTopic = "status_topic", legacy
    }

    /// Decodes the `homeassistant` section; `homeassistant: false` is short for `enabled: false`.
    public init(from decoder: any Decoder) throws {
        if let flag = try? decoder.singleValueContainer().decode(Bool.self) {
            enabled = flag
            return
        }
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: true)
        discoveryPrefix = reader.value(.discoveryPrefix, default: discoveryPrefix)
        statusTopic = reader.value(.statusTopic, default: statusTopic)
        legacy = reader.value(.legacy, default: false)
    }
}

extension DeviceSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case alias, retain, qos, homeassistant
    }

    /// Decodes one `devices` entry.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        alias = reader.optional(.alias)
        retain = reader.value(.retain, default: true)
        qos = reader.optional(.qos)
        if reader.container.contains(.homeassistant) {
            if (try? reader.container.decodeNil(forKey: .homeassistant)) == true {
                homeassistant = .disabled
            } else if let overrides: [String: JSONValue] = reader.optional(.homeassistant) {
                homeassistant = .overrides(overrides)
            }
        }
    }
}

extension LIFXSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, token, tokenFile = "token_file", apiURL = "api_url", pollInterval = "poll_interval"
    }

    /// Decodes the `lifx` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        token = reader.optional(.token)
        tokenFile = reader.optional(.tokenFile)
        apiURL = reader.value(.apiURL, default: apiURL)
        pollInterval = reader.value(.pollInterval, default: pollInterval)
    }
}

extension BLESettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, adapter, awayAfter = "away_after", connect, deny, passive, stateInterval = "state_interval"
        case rssiInterval = "rssi_interval"
    }

    /// Decodes the `ble` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        adapter = reader.optional(.adapter)
        awayAfter = reader.value(.awayAfter, default: awayAfter)
        if awayAfter < .seconds(1) { reader.problem(.awayAfter, "must be at least 1s") }
        let rules: [ConfigRule] = reader.value(.connect, default: [])
        connect = rules.compactMap(\.rule)
        let addresses: [String] = reader.value(.deny, default: [])
        for (index, text) in addresses.enumerated() {
            do throws(BluetoothAddressError) {
                deny.append(try BluetoothAddress(text).description)
            } catch {
                reader.collector.add(reader.path + ["deny", "Index \(index)"], error.description)
            }
        }
        passive = Self.passiveFormats(reader)
        stateInterval = reader.value(.stateInterval, default: stateInterval)
        if stateInterval < .seconds(1) { reader.problem(.stateInterval, "must be at least 1s") }
        // 0s publishes every reading: live signal at the cost of one publish per advert.
        rssiInterval = reader.value(.rssiInterval, default: rssiInterval)
    }

    /// `passive`: format names in any case, each once; an unknown or repeated one is reported where it is written.
    private static func passiveFormats(_ reader: SectionReader<CodingKeys>) -> [PassiveFormat] {
        guard let names: [String] = reader.optional(.passive) else { return PassiveFormat.defaults }
        var formats: [PassiveFormat] = []
        for (index, name) in names.enumerated() {
            let path = reader.path + ["passive", "Index \(index)"]
            guard let format = PassiveFormat(rawValue: name.lowercased()) else {
                let known = PassiveFormat.allCases.map(\.rawValue).joined(separator: ", ")
                reader.collector.add(path, "\"\(name)\" is not a passive advert format (\(known))")
                continue
            }
            guard !formats.contains(format) else {
                reader.collector.add(path, "\"\(name)\" is listed twice")
                continue
            }
            formats.append(format)
        }
        return formats
    }
}
