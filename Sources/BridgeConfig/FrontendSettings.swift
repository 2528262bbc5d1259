/// The `frontend` section: the web page and its websocket, served by the daemon.
public struct FrontendSettings: Sendable, Equatable, Encodable {
    public var enabled = false
    /// The address to listen on; the default keeps the page on this machine.
    public var host = "127.0.0.1"
    public var port = 8080
    /// Where users reach the page (`http://pi.local:8080/`), for Home Assistant's links to a device's page;
    /// the page itself uses relative URLs only and works under any prefix without it.
    public var baseURL: String?
    /// The token a page must send first on the websocket, read from `auth_token` or `auth_token_file`.
    public var authToken: Secret?
    public var authTokenFile: String?
    /// The only client addresses let in (Home Assistant's ingress proxy is 172.30.32.2); empty lets any in.
    public var allowFrom: [String] = []

    /// Creates the defaults.
    public init() {}

    enum CodingKeys: String, CodingKey, CaseIterable {
        case enabled, host, port, baseURL = "base_url", authToken = "auth_token", authTokenFile = "auth_token_file"
        case allowFrom = "allow_from"
    }

    /// The link to one device's page, for discovery's `configuration_url`; nil without a `base_url`.
    public func devicePageURL(_ id: String) -> String? {
        guard enabled, let baseURL else { return nil }
        return (baseURL.hasSuffix("/") ? baseURL : baseURL + "/") + "#/device/" + id
    }
}

extension FrontendSettings: Decodable {
    /// Decodes `frontend`; `frontend: true` is short for `enabled: true`.
    public init(from decoder: any Decoder) throws {
        if let flag = try? decoder.singleValueContainer().decode(Bool.self) {
            enabled = flag
            return
        }
        let reader = try SectionReader(decoder, keys: CodingKeys.self)
        enabled = reader.value(.enabled, default: false)
        host = reader.value(.host, default: host)
        port = reader.value(.port, default: port)
        if !(0...65535).contains(port) {
            reader.problem(.port, "\(port) is not a TCP port (0 to 65535)")
            port = 8080
        }
        baseURL = reader.optional(.baseURL)
        if let url = baseURL, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            reader.problem(.baseURL, "\"\(url)\" must start with http:// or https:// (Home Assistant refuses other links)")
            baseURL = nil
        }
        authToken = reader.secret(.authToken, file: .authTokenFile)
        authTokenFile = reader.optional(.authTokenFile)
        if authToken?.value.isEmpty == true { reader.problem(.authToken, "must not be empty") }
        allowFrom = reader.value(.allowFrom, default: [])
        for address in allowFrom where !Self.isIPAddress(address) {
            reader.problem(.allowFrom, "\"\(address)\" is not an IP address")
        }
        if let exposure = exposureProblem { reader.problem(.host, exposure) }
    }
}

extension FrontendSettings {
    /// Why the page must not serve as set: an address other machines reach with neither `auth_token` nor
    /// `allow_from`, which would hand anyone there every state, the config, the log and every command; nil when
    /// it may.
    public var exposureProblem: String? {
        guard enabled, !HostNames.isLoopback(host), authToken == nil, allowFrom.isEmpty else { return nil }
        return "the page on \"\(host)\" is open to other machines: set auth_token (or auth_token_file), or allow_from, "
            + "or listen on 127.0.0.1"
    }

    /// Whether a client at `address` may use the page: any when `allow_from` is empty. An IPv4 client seen on an
    /// IPv6 socket (`::ffff:172.30.32.2`) counts as its IPv4 address.
    public func allows(_ address: String?) -> Bool {
        guard !allowFrom.isEmpty else { return true }
        guard var address else { return false }
        if address.hasPrefix("::ffff:"), address.contains(".") { address.removeFirst(7) }
        return allowFrom.contains(address)
    }

    /// Dotted IPv4 or colon-separated IPv6, as a client's address is compared.
    static func isIPAddress(_ text: String) -> Bool {
        let quads = text.split(separator: ".", omittingEmptySubsequences: false)
        if quads.count == 4 { return quads.allSatisfy { UInt8($0) != nil && !$0.isEmpty && $0.allSatisfy(\.isNumber) } }
        return text.contains(":") && text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
    }
}
