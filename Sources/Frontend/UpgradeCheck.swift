import Hummingbird

/// Whether a browser page may open the `api` websocket. Browsers let any site open a websocket to
/// 127.0.0.1, so a page (an http or https origin) from another origin is refused; and on a loopback
/// address, a page must also name a loopback host, since DNS rebinding gives a foreign page a name of its
/// own that resolves here. Home Assistant's ingress sets X-Ingress-Path and its own Host, and is let in.
/// Other clients name what they like as origin, so only browsers' pages are told apart this way.
struct UpgradeCheck {
    let origin: String?
    let host: String?
    let ingress: Bool
    /// The Home Assistant user ingress names (`X-Remote-User-Name`), logged with each change the page makes.
    let remoteUser: String?

    init(_ head: HTTPRequest) {
        func field(_ name: String) -> String? { head.headerFields.first { $0.name.canonicalName == name }?.value }
        origin = field("origin")
        host = head.authority ?? field("host")
        ingress = field("x-ingress-path") != nil
        remoteUser = field("x-remote-user-name").map { String($0.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(64)) }
    }

    func allowed(loopbackOnly: Bool) -> Bool {
        guard let origin, origin.hasPrefix("http://") || origin.hasPrefix("https://") else { return true }
        if ingress { return true }
        guard let host, origin == "http://" + host || origin == "https://" + host else { return false }
        return !loopbackOnly || Self.isLoopback(Self.hostName(host))
    }

    /// `127.0.0.1`, `localhost`, `::1` and the rest of 127.0.0.0/8.
    static func isLoopback(_ name: String) -> Bool {
        name == "localhost" || name == "::1" || name == "[::1]" || name.hasPrefix("127.")
    }

    /// The host of a `Host` header without its port (`[::1]:8080` → `[::1]`).
    static func hostName(_ host: String) -> String {
        if host.hasPrefix("[") { return host.split(separator: "]").first.map { $0 + "]" } ?? host }
        return host.split(separator: ":").first.map(String.init) ?? host
    }
}
