import BridgeCore
import FoundationEssentials

/// Checks that need more than one field, and checks paths exist.
struct Validation {
    let collector: IssueCollector
    let baseDirectory: String

    func check(_ config: inout Configuration) {
        checkMQTT(&config.mqtt)
        checkHomeAssistant(config.homeassistant)
        checkDevices(config)
    }

    private func checkMQTT(_ mqtt: inout MQTTSettings) {
        if ServerURL(mqtt.server) == nil {
            collector.add(["mqtt", "server"], "\"\(mqtt.server)\" is not a broker URL (write mqtt://host:1883 or mqtts://host:8883)")
        }
        if let problem = Topics.validateBase(mqtt.baseTopic) { collector.add(["mqtt", "base_topic"], problem) }
        if !(0...2).contains(mqtt.qos) { collector.add(["mqtt", "qos"], "must be 0, 1 or 2") }
        if !(ConfigDuration.seconds(5)...ConfigDuration.seconds(65535)).contains(mqtt.keepalive) {
            collector.add(["mqtt", "keepalive"], "must be between 5s and 65535s")
        }
        if let clientID = mqtt.clientID, clientID.isEmpty || clientID.utf8.count > 65535 {
            collector.add(["mqtt", "client_id"], "must not be empty")
        }
        if mqtt.password != nil, mqtt.username == nil {
            collector.add(["mqtt", "password"], "a password needs a username")
        }
        if let tls = mqtt.tls {
            if !mqtt.usesTLS { collector.add(["mqtt", "tls"], "TLS settings need an mqtts:// server") }
            for (key, path) in [("ca_file", tls.caFile), ("cert_file", tls.certFile), ("key_file", tls.keyFile)] {
                if let path, !FileManager.default.isReadableFile(atPath: resolve(path)) {
                    collector.add(["mqtt", "tls", key], "cannot read \(path)")
                }
            }
            if (tls.certFile == nil) != (tls.keyFile == nil) {
                collector.add(["mqtt", "tls"], "cert_file and key_file go together")
            }
            mqtt.tls?.caFile = tls.caFile.map(resolve)
            mqtt.tls?.certFile = tls.certFile.map(resolve)
            mqtt.tls?.keyFile = tls.keyFile.map(resolve)
        }
    }

    private func checkHomeAssistant(_ settings: HomeAssistantSettings) {
        if let problem = Topics.validateBase(settings.discoveryPrefix) {
            collector.add(["homeassistant", "discovery_prefix"], problem)
        }
        if let problem = Topics.validateBase(settings.statusTopic) {
            collector.add(["homeassistant", "status_topic"], problem)
        }
    }

    private func checkDevices(_ config: Configuration) {
        var owners: [String: DeviceID] = [:]
        for (id, settings) in config.devices.sorted(by: { $0.key < $1.key }) {
            let path = ["devices", id.rawValue]
            if let qos = settings.qos, !(0...2).contains(qos) { collector.add(path + ["qos"], "must be 0, 1 or 2") }
            guard let alias = settings.alias else { continue }
            if let problem = config.aliasProblem(alias, for: id) {
                collector.add(path + ["alias"], "\"\(alias)\" \(problem)")
            } else if let other = owners[alias] {
                collector.add(path + ["alias"], "\"\(alias)\" is already the alias of \(other)")
            }
            owners[alias] = owners[alias] ?? id
        }
    }

    private func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : baseDirectory + "/" + path
    }
}
