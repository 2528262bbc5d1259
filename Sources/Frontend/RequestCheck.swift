import BridgeConfig
import BridgeCore
import Hummingbird

/// The `Host` names the page answers to, the same for every route and the websocket. Browsers let any site send
/// requests to 127.0.0.1 or the LAN, and DNS rebinding gives a foreign page a name of its own that resolves here,
/// so a request is answered only under a name the attacker cannot choose: a loopback name (`localhost`, 127.x,
/// `[::1]`), the configured `host`, the host of `base_url`, and, while the page listens beyond loopback, any IP
/// literal (a page can only be at an IP literal's origin if it was loaded from this machine).
struct HostPolicy: Sendable {
    /// Names besides loopback ones: the listening host (unless a wildcard) and `base_url`'s host, lowercased.
    let names: Set<String>
    /// Whether the page listens beyond loopback, where it is reached by this machine's own addresses.
    let beyondLoopback: Bool
    /// Whether `X-Ingress-Path` is believed: only when `allow_from` is set, so that every client let in is a listed
    /// address (Home Assistant's ingress proxy, in the add-on).
    let trustsIngress: Bool

    init(_ settings: FrontendSettings) {
        var names: Set<String> = []
        if !["0.0.0.0", "::", "[::]", ""].contains(settings.host) {
            names.insert(HostNames.name(ofHost: settings.host.contains(":") ? "[\(settings.host)]" : settings.host) ?? settings.host.lowercased())
        }
        if let base = settings.baseURL.flatMap(Self.authority), let name = HostNames.name(ofHost: base) { names.insert(name) }
        self.names = names
        beyondLoopback = !HostNames.isLoopback(settings.host)
        trustsIngress = !settings.allowFrom.isEmpty
    }

    /// Whether a request naming `host` (a `Host` header, port included) is for this page.
    func accepts(host: String?) -> Bool {
        guard let host, let name = HostNames.name(ofHost: host) else { return false }
        return HostNames.isLoopback(name) || names.contains(name) || (beyondLoopback && HostNames.isIPLiteral(name))
    }

    /// `host:port` of an http(s) URL, without any user part.
    static func authority(_ url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return String(authority.split(separator: "@").last ?? authority)
    }
}

/// What the checks read of one request's head: its `Origin`, its `Host`, and what Home Assistant's ingress adds.
struct RequestCheck {
    let origin: String?
    let host: String?
    /// `X-Ingress-Path`, when the policy trusts it; a client outside `allow_from` cannot make itself ingress.
    let ingressPath: String?
    /// The Home Assistant user ingress names (`X-Remote-User-Name`), logged with each change the page makes; only
    /// from trusted ingress, so no one else can put a name of their choice beside a change.
    let remoteUser: String?

    /// Reads a request's head; `field` looks a header up by its lowercased name.
    init(authority: String?, policy: HostPolicy, field: (String) -> String?) {
        origin = field("origin")
        host = authority ?? field("host")
        ingressPath = policy.trustsIngress ? field("x-ingress-path") : nil
        remoteUser = ingressPath == nil ? nil : field("x-remote-user-name").map { LogText.escaped($0, limit: 64) }
    }

    /// Reads a request's head as Hummingbird hands it on.
    init(_ head: HTTPRequest, policy: HostPolicy) {
        self.init(authority: head.authority, policy: policy) { name in head.headerFields.first { $0.name.canonicalName == name }?.value }
    }

    /// Why the page refuses the request, or nil. With an `Origin` (a browser's page), it must be this page's own,
    /// `http://` or `https://` and the exact `Host`: `null` (a sandboxed frame, a data: or file: page) and every
    /// other origin are refused. Ingress carries the user's own Host and origin, which only the proxy sees.
    func refusal(_ policy: HostPolicy) -> String? {
        if origin == "null" { return "a page without an origin of its own" }
        if ingressPath != nil { return nil }
        guard policy.accepts(host: host) else { return "a Host this page does not answer to" }
        guard let origin else { return nil }
        guard let host, origin == "http://" + host || origin == "https://" + host else { return "a page of another origin" }
        return nil
    }
}
