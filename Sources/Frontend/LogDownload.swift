import BridgeCore
import Hummingbird

/// `logs`: the lines the log ring holds, as JSON, for the page's Logs (its history and its download). The lines
/// are the bridge's, so they are behind the page's token (sent as `Authorization: Bearer`, never in the URL); the
/// responder has already refused a foreign `Host` or origin, as for every route (DNS rebinding).
struct LogDownload {
    let ring: LogRing?
    let token: String?

    func respond(to request: Request) -> Response {
        if let token {
            let given = request.headers[.authorization].flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            guard let given, APISession.same(given, token) else {
                return FrontendResponder.text("unauthorized\n", status: .unauthorized)
            }
        }
        guard let ring else { return FrontendResponder.text("this bridge keeps no log lines\n", status: .notFound) }
        let lines = ring.records.map { record -> JSONValue in
            [
                "time": .number((record.time * 1000).rounded()), "level": .string(record.level.rawValue),
                "namespace": .string(record.namespace), "message": .string(record.message),
            ]
        }
        return FrontendResponder.text(JSONValue.array(lines).jsonString, type: "application/json", cache: "no-store")
    }
}
