import FoundationEssentials

/// The MQTT broker Home Assistant's Supervisor offers add-ons (`GET /services/mqtt`), as the Mosquitto
/// broker add-on registers it.
public struct SupervisorMQTT: Decodable, Sendable, Equatable {
    public var host: String
    public var port: Int
    public var ssl: Bool
    public var username: String?
    public var password: String?
    /// The add-on that provides it (`core_mosquitto`), when the Supervisor says.
    public var addon: String?

    /// A broker at `host:port`.
    public init(host: String, port: Int, ssl: Bool = false, username: String? = nil, password: String? = nil, addon: String? = nil) {
        self.host = host
        self.port = port
        self.ssl = ssl
        self.username = username
        self.password = password
        self.addon = addon
    }

    /// The broker's URL in the config's form.
    public var server: String { (ssl ? "mqtts://" : "mqtt://") + host + ":" + String(port) }

    /// Reads the Supervisor's answer, `{"result": "ok", "data": {…}}`; anything else says why there is no broker.
    public static func parse(_ bytes: [UInt8], status: Int) throws(AddonError) -> SupervisorMQTT {
        struct Envelope: Decodable {
            var result: String
            var message: String?
            var data: SupervisorMQTT?
        }
        let envelope = try? JSONDecoder().decode(Envelope.self, from: Data(bytes))
        if status == 200, let envelope, envelope.result == "ok", let data = envelope.data { return data }
        if status == 401 || status == 403 {
            throw AddonError("the Supervisor refused the add-on's token (HTTP status \(status)); restart the add-on, or set mqtt_server in its options")
        }
        let reason = envelope?.message ?? "HTTP status \(status)"
        throw AddonError(
            "the Supervisor offers no MQTT broker (\(reason)): install and start the Mosquitto broker add-on, "
                + "or set mqtt_server in this add-on's options")
    }
}
