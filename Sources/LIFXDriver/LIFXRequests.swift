public import BridgeCore
import FoundationEssentials
import LIFXModels

/// `bridge/request/lifx/<name>`.
extension LIFXDriver {
    /// Answers `scene`, `scenes`, `refresh`, `validate_color`, `toggle` and `delta`.
    public func handleRequest(_ name: String, payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        switch name {
        case "scene":
            guard let key = payload["scene"]?.stringValue else { throw CommandError("lifx/scene needs {\"scene\": name or uuid}") }
            try activateScene(key)
            let scene = scenes.first { $0.uuid == key || $0.name.lowercased() == key.lowercased() }
            return ["scene": .string(scene?.name ?? key), "uuid": .string(scene?.uuid ?? key)]
        case "scenes":
            return .array(scenes.map { scene -> JSONValue in ["name": .string(scene.name), "uuid": .string(scene.uuid)] })
        case "refresh":
            requestRefresh()
            return [:]
        case "validate_color":
            guard let color = payload["color"]?.stringValue else { throw CommandError("lifx/validate_color needs {\"color\": \"…\"}") }
            return try await direct { client throws(LIFXError) in try await client.validateColor(color) }
        case "toggle", "delta":
            // The bridge has resolved "device" (an id or alias) to the id; "id" is the older spelling.
            guard let key = (payload["device"] ?? payload["id"])?.stringValue, let device = DeviceID(key),
                let target = target(for: device)
            else {
                throw CommandError("lifx/\(name) needs {\"device\": id or alias} naming a known light or group")
            }
            var body = payload
            body["id"] = nil
            body["device"] = nil
            let selector = target.selector
            let fields = body
            let results = try await direct { client throws(LIFXError) in
                name == "toggle"
                    ? try await client.toggle(selector, duration: fields["duration"]?.doubleValue)
                    : try await client.delta(selector, fields)
            }
            requestRefresh()
            return .array(results.results.map { result -> JSONValue in ["id": .string(result.id), "status": .string(result.status)] })
        default:
            throw CommandError("unknown request lifx/\(name) (known: scene, scenes, refresh, validate_color, toggle, delta)")
        }
    }

    /// A request outside the write queue, still counted against the budget.
    private func direct<T: Sendable>(_ call: @Sendable (LIFXClient) async throws(LIFXError) -> LIFXReply<T>) async throws(CommandError) -> T {
        if let delay = budget.delay(for: .write, now: options.clock.now) {
            throw CommandError("rate limited by the LIFX cloud; try again in \(Int(delay.rounded(.up))) s")
        }
        budget.spend(now: options.clock.now)
        do {
            let reply = try await call(client)
            noteRate(reply.rate)
            return reply.value
        } catch {
            if case .rateLimited(let reset) = error { budget.rateLimited(reset: reset, now: options.clock.now) }
            throw CommandError(error.description)
        }
    }
}
