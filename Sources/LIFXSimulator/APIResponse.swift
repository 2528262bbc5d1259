import Foundation

/// What the simulator sends back, before serialisation.
struct APIResponse: Sendable {
    /// Bodies are kept structured so that large light lists render outside the state lock.
    enum Body: Sendable {
        case empty
        case json(JSON)
        case lights([SimulatedLight], now: Date)
        case scenes([SimulatedScene], accountUUID: String)
    }

    var status: Int
    var body: Body
    var headers: [(String, String)] = []

    /// A JSON answer.
    static func json(_ status: Int, _ value: JSON) -> APIResponse {
        APIResponse(status: status, body: .json(value))
    }

    /// The documented error shape, optionally with per-field details.
    static func error(_ status: Int, _ message: String, fields: [ParameterError] = []) -> APIResponse {
        var pairs: [(String, JSON)] = [("error", .string(message))]
        if !fields.isEmpty {
            pairs.append(("errors", .array(fields.map { field in
                .object([("field", .string(field.field)), ("message", .array([.string(field.message)]))])
            })))
        }
        return json(status, .object(pairs))
    }

    /// A 422 listing every invalid parameter; the summary reads like "color is missing".
    static func validation(_ fields: [ParameterError]) -> APIResponse {
        let summary = fields.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
        return error(422, summary, fields: fields)
    }

    /// Serialised body bytes.
    func renderedBody() -> String? {
        switch body {
        case .empty: nil
        case .json(let value): value.rendered()
        case .lights(let lights, let now): LightRendering.render(lights, now: now)
        case .scenes(let scenes, let account): LightRendering.render(scenes, accountUUID: account)
        }
    }
}

/// A failure that ends request handling with a ready answer.
struct APIError: Error {
    var response: APIResponse

    /// Wraps a prepared answer.
    init(_ response: APIResponse) { self.response = response }

    /// An error answer with the documented `{"error": ...}` body.
    init(_ status: Int, _ message: String) { self.response = .error(status, message) }
}

/// One invalid parameter, reported as `{"field": ..., "message": [...]}`.
struct ParameterError: Sendable, Equatable {
    var field: String
    var message: String
}
