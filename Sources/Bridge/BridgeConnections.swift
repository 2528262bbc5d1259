import BridgeCore
import Support

/// Work for a request that may wait on the network or a device, run off the bridge's queue.
typealias OffQueueWork = @Sendable () async throws(CommandError) -> JSONValue

/// Requests that wait on a driver: `<integration>/<name>` and `device/connect|disconnect|remember`. The bridge
/// resolves `"device"` (an id or an alias) here, once for every family, before any driver sees it.
extension BridgeService {
    /// The off-queue work for a request, nil if the bridge answers it itself; throws for a bad request.
    func offQueueWork(_ name: String, _ fields: [String: JSONValue]) throws(CommandError) -> OffQueueWork? {
        if let (driver, request) = integrationRequest(name) {
            var payload = fields
            if let key = fields["device"] {
                let record = try resolve(key, for: name)
                guard record.id.integration == driver.integration else {
                    throw CommandError("\(record.alias) is a \(record.id.integration.rawValue) device, not \(driver.integration.rawValue)")
                }
                payload["device"] = .string(record.id.rawValue)
            }
            let (request, resolved) = (request, payload)
            return { () async throws(CommandError) -> JSONValue in try await driver.handleRequest(request, payload: resolved) }
        }
        switch name {
        case "device/connect", "device/disconnect", "device/remember":
            return try connectionWork(name, fields)
        default:
            return nil
        }
    }

    /// The device a request's `"device"` names.
    func resolve(_ key: JSONValue, for request: String) throws(CommandError) -> DeviceRecord {
        guard let text = key.stringValue else { throw CommandError("\(request) needs \"device\": an id or alias") }
        guard let record = lookup(text) else { throw CommandError("no device \"\(text)\"") }
        return record
    }

    private func connectionWork(_ name: String, _ fields: [String: JSONValue]) throws(CommandError) -> OffQueueWork {
        let record = try resolve(fields["device"] ?? .null, for: name)
        guard let control = drivers[record.id.integration] as? any ConnectionControl else {
            let family = record.id.integration.rawValue
            throw CommandError("\(family) devices have no connection to control (\(record.alias) is a \(family) device)")
        }
        let id = record.id
        var answer: [String: JSONValue] = ["id": .string(id.rawValue), "alias": .string(record.alias)]
        var remember = fields["remember"]?.boolValue
        if name == "device/remember" { remember = remember ?? true }
        var told: OnceValue<Void>?
        if let remember {
            setRemembered(id, remember)
            told = tell(control, id, remembered: remember)
            answer["remembered"] = .bool(remember)
        }
        let timeout = options.connectionTimeout
        let seconds = timeout.components.seconds
        let (base, update) = (answer, told)
        return { () async throws(CommandError) -> JSONValue in
            var answer = base
            // The driver knows the device is remembered before it connects it.
            // Bounded: a stopping bridge may drop the hand-over, and this request must end with it.
            _ = await update?.wait(until: .now + timeout)
            switch name {
            case "device/connect":
                try await Self.within(timeout, "no connection to \(id) within \(seconds) s") { () async throws(CommandError) in
                    try await control.connect(id)
                }
                answer["connected"] = true
            case "device/disconnect":
                try await Self.within(timeout, "\(id) still connected after \(seconds) s") { () async throws(CommandError) in
                    try await control.disconnect(id)
                }
                answer["connected"] = false
            default:
                break
            }
            return .object(answer)
        }
    }

    /// Adds a device to the remembered set or takes it out, and persists the set.
    private func setRemembered(_ id: DeviceID, _ remember: Bool) {
        let changed = remember ? remembered.insert(id).inserted : remembered.remove(id) != nil
        guard changed else { return }
        options.saveRemembered?(remembered)
        scheduleInventory()
    }

    /// Tells every connection-holding driver which of its devices are remembered (at start-up).
    func announceRemembered() {
        for id in remembered.sorted() {
            guard let control = drivers[id.integration] as? any ConnectionControl else { continue }
            tell(control, id, remembered: true)
        }
    }

    /// Hands one change of the remembered set to a driver, after every change handed over before it; the
    /// value is set once the driver has it (at once if the bridge is stopping and it was not handed over).
    @discardableResult
    private func tell(_ control: any ConnectionControl, _ id: DeviceID, remembered: Bool) -> OnceValue<Void> {
        let told = OnceValue<Void>()
        let queued = rememberedUpdates.start {
            await control.setRemembered(id, remembered)
            told.set(())
        }
        if !queued { told.set(()) }
        return told
    }

    /// Runs `body`, or fails with `message` once `timeout` has passed (the body is cancelled then).
    static func within(
        _ timeout: Duration, _ message: String, _ body: @escaping @Sendable () async throws(CommandError) -> Void
    ) async throws(CommandError) {
        let outcome = await withTaskGroup(of: CommandError??.self) { group -> CommandError? in
            group.addTask {
                do throws(CommandError) {
                    try await body()
                    return .some(nil)
                } catch {
                    return .some(error)
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .some(CommandError(message))
            }
            for await result in group {
                guard let result else { continue }
                group.cancelAll()
                return result
            }
            return CommandError(message)
        }
        if let outcome { throw outcome }
    }
}
