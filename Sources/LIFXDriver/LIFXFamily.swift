public import BridgeConfig
public import BridgeCore
import FoundationEssentials
import LIFXModels

/// LIFX cloud lights: the `lifx` section and the driver.
public enum LIFXFamily: DeviceFamily {
    /// The family's device ids.
    public static let idForm = "lifx_<id>"

    /// Builds the driver around the cloud client; without a token (refused by the config check) there is none.
    public static func makeDriver(_ settings: LIFXSettings, context: DriverContext) -> (any DeviceDriver)? {
        guard let token = settings.token else { return nil }
        return LIFXDriver(
            client: LIFXClient(baseURL: settings.apiURL, token: token.value), sink: context.sink,
            options: LIFXDriverOptions(pollInterval: settings.pollInterval.duration), logger: context.logger)
    }
}

/// The `lifx` section.
public struct LIFXSettings: FamilySettings {
    /// The family the section configures.
    public static let integration = Integration.lifx
    public var enabled = false
    /// The API token, read from `token` or `token_file`.
    public var token: Secret?
    public var tokenFile: String?
    public var apiURL = "https://api.lifx.com/v1"
    public var pollInterval = ConfigDuration.seconds(30)
    /// Creates the defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, token, tokenFile = "token_file", apiURL = "api_url", pollInterval = "poll_interval"
    }

    /// Decodes and checks the `lifx` section.
    public init(from decoder: any Decoder) throws {
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        token = reader.secret(.token, file: .tokenFile)
        tokenFile = reader.optional(.tokenFile)
        apiURL = reader.value(.apiURL, default: apiURL)
        pollInterval = reader.value(.pollInterval, default: pollInterval)
        if enabled, token?.value.isEmpty ?? true {
            reader.problem(.token, "the LIFX integration needs a token (token: ${LIFX_TOKEN} or token_file)")
        }
        if let url = URL(string: apiURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil {
            if pollInterval < .seconds(1) { reader.problem(.pollInterval, "must be at least 1s") }
        } else {
            reader.problem(.apiURL, "\"\(apiURL)\" is not an http(s) URL")
        }
    }
}

extension Configuration {
    /// The `lifx` section.
    public var lifx: LIFXSettings {
        get { self[LIFXSettings.self] }
        set { self[LIFXSettings.self] = newValue }
    }
}
