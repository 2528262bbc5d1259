/// Config files for bridges under test.
public enum TestConfig {
    /// A config for a bridge on the test broker; `mqttLines` go into `mqtt:`, `extra` is appended as top-level YAML.
    public static func yaml(
        port: Int, base: String = "t2m", keepalive: String = "5s", logLevel: String = "info", legacy: Bool = false,
        mqttLines: [String] = [], extra: String = ""
    ) -> String {
        """
        mqtt:
          server: mqtt://127.0.0.1:\(port)
          base_topic: \(base)
          keepalive: \(keepalive)
        \(mqttLines.map { "  " + $0 + "\n" }.joined())homeassistant:
          legacy: \(legacy)
        log_level: \(logLevel)

        """ + extra
    }
}
