public import BridgeConfig
import Things2MQTTApp

extension ConfigLoader {
    /// Parses config text with the daemon's registered families, as `things2mqtt` loads it.
    public static func parse(
        yaml: String, file: String, baseDirectory: String = ".", environment: [String: String] = [:]
    ) throws(ConfigErrors) -> Configuration {
        try parse(yaml: yaml, file: file, families: Families.sections, baseDirectory: baseDirectory, environment: environment)
    }
}
