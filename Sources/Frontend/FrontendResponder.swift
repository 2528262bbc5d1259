import BridgeCore
import Hummingbird
import Logging

/// Answers the page's plain HTTP requests by the last level of the path, so the page works under any prefix
/// a proxy or Home Assistant's ingress puts before it: the page and its files, `healthz`, `metrics` and `logs`. Only
/// `allow_from`'s clients are answered, and but for `healthz` only under a `Host` of the page (`HostPolicy`).
struct FrontendResponder: HTTPResponder {
    typealias Context = FrontendContext
    let link: FrontendLink
    let metrics: FrontendMetrics
    let logs: LogDownload
    let allows: @Sendable (String?) -> Bool
    let policy: HostPolicy
    let logger: Logger

    /// Every answer, a refusal included, carries the page's policy and `nosniff`: no other site may frame it, and no
    /// browser reads a file as another type than the one it is sent as.
    func respond(to request: Request, context: Context) async throws -> Response {
        var response = route(request, context: context)
        response.headers[.contentSecurityPolicy] = Self.policy
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }

    private func route(_ request: Request, context: Context) -> Response {
        guard allows(context.remoteAddress?.ipAddress) else { return Self.text("forbidden\n", status: .forbidden) }
        guard request.method == .get || request.method == .head else { return Response(status: .methodNotAllowed) }
        let path = request.uri.path
        let name = path.hasSuffix("/") ? "index.html" : path.split(separator: "/").last.map(String.init) ?? "index.html"
        // A probe names whatever address it reached the page at, and learns only whether the broker is there.
        if name == "healthz" {
            return link.isConnected()
                ? Self.text("ok\n") : Self.text("not connected to the MQTT broker\n", status: .serviceUnavailable)
        }
        let check = RequestCheck(request.head, policy: policy)
        if let refusal = check.refusal(policy) {
            logger.debug(
                "Web frontend request refused: \(refusal)",
                metadata: [
                    "host": "\(LogText.escaped(check.host ?? "-"))", "origin": "\(LogText.escaped(check.origin ?? "-"))",
                    "path": "\(LogText.escaped(path))",
                ])
            return Self.text("forbidden: \(refusal)\n", status: .forbidden)
        }
        switch name {
        case "metrics":
            return Self.text(metrics.render(), type: "text/plain; version=0.0.4; charset=utf-8")
        case "logs":
            return logs.respond(to: request)
        case "api":
            return Self.text("api is a websocket\n", status: .badRequest)
        default:
            guard let asset = WebAssets.files[name] else {
                // `/prefix` without its slash would resolve the page's relative URLs against the parent.
                if !name.contains(".") { return Response(status: .found, headers: [.location: name + "/"]) }
                return Self.text("not found\n", status: .notFound)
            }
            var body = asset.body
            if name == "index.html", let prefix = check.ingressPath, let base = Self.baseElement(prefix) {
                body = body.replacing("<head>", with: "<head>\n" + base, maxReplacements: 1)
            }
            // The page is small and changes with each release: always revalidated, never stale after an upgrade.
            return Self.text(body, type: asset.contentType, cache: "no-cache")
        }
    }

    /// The page loads nothing from another host and runs no inline script, and only a page of its own origin may
    /// frame it (Home Assistant's ingress panel is one, as ingress serves both); the browser holds it to that.
    static let policy =
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'self'; form-action 'none'; frame-ancestors 'self'"

    /// `<base href>` for Home Assistant's ingress prefix, when it is a plain path (anything else is ignored).
    static func baseElement(_ prefix: String) -> String? {
        let allowed = prefix.unicodeScalars.allSatisfy {
            ($0.properties.isASCIIHexDigit || ("a"..."z").contains($0) || ("A"..."Z").contains($0) || "/_-.".unicodeScalars.contains($0))
        }
        guard allowed, prefix.hasPrefix("/") else { return nil }
        return "<base href=\"\(prefix.hasSuffix("/") ? prefix : prefix + "/")\">"
    }

    static func text(
        _ text: String, status: HTTPResponse.Status = .ok, type: String = "text/plain; charset=utf-8", cache: String? = nil
    ) -> Response {
        var headers: HTTPFields = [.contentType: type]
        if let cache { headers[.cacheControl] = cache }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
