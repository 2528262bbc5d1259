import BridgeConfig
import BridgeCore
import Logging

/// `bridge/request/<name>` → `bridge/response/<name>`, echoing `transaction`.
extension BridgeService {
    func handleRequest(_ name: String, payload: [UInt8], shared: Bool = false) async {
        var fields: [String: JSONValue] = [:]
        var transaction: JSONValue?
        if !String(decoding: payload, as: UTF8.self).trimmingWhitespace.isEmpty {
            let object: [String: JSONValue]
            do throws(CommandError) {
                guard let parsed = try JSONValue.commandPayload(payload)?.objectValue else {
                    throw CommandError("payload must be a JSON object")
                }
                object = parsed
            } catch {
                respond(name, transaction: nil, .failure(error), shared: shared)
                return
            }
            transaction = object["transaction"]
            fields = object
            fields["transaction"] = nil
        }
        let work: OffQueueWork
        do throws(CommandError) {
            guard let found = try offQueueWork(name, fields) else {
                respond(name, transaction: transaction, await answer(name, fields), shared: shared)
                return
            }
            work = found
        } catch {
            respond(name, transaction: transaction, .failure(error), shared: shared)
            return
        }
        // Drivers may need the network or a device to answer; the bridge keeps handling other messages meanwhile.
        let started = tasks.start { [transaction] in
            let result: Result<JSONValue, CommandError>
            do throws(CommandError) {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            await self.respond(name, transaction: transaction, result, shared: shared)
        }
        if !started { respond(name, transaction: transaction, .failure(CommandError("the bridge is stopping")), shared: shared) }
    }

    /// Publishes `bridge/response/<name>` (in a cluster: under `bridge/<bridge_id>/`, or the shared one for a
    /// request that came on the shared topic).
    func respond(_ name: String, transaction: JSONValue?, _ result: Result<JSONValue, CommandError>, shared: Bool = false) {
        var response: [String: JSONValue]
        switch result {
        case .success(let data): response = ["status": "ok", "data": data]
        case .failure(let error):
            response = ["status": "error", "data": [:], "error": .string(error.message)]
            warnRepeated(
                "failed requests", source: name, "Request failed", metadata: ["request": "\(name)", "error": "\(error.message)"])
        }
        if let transaction { response["transaction"] = transaction }
        publishJSON((shared ? Topics(base: topics.base) : topics).response(name), .object(response), retain: false, qos: 1)
    }

    /// The driver and its request name for `<integration>/<name>` requests of running integrations.
    func integrationRequest(_ name: String) -> (any DeviceDriver, String)? {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let driver = drivers[Integration(rawValue: parts[0])] else {
            return nil
        }
        return (driver, parts[1])
    }

    private func answer(_ name: String, _ fields: [String: JSONValue]) async -> Result<JSONValue, CommandError> {
        do throws(CommandError) {
            switch name {
            case "health_check": return .success(healthCheck())
            case "device/rename": return .success(try rename(fields))
            case "device/remove": return .success(try await remove(fields))
            case "options": return .success(try setOptions(fields))
            default:
                let integration = Integration(rawValue: String(name.prefix { $0 != "/" }))
                if name.contains("/"), knownIntegrations.contains(integration) {
                    throw CommandError("the \(integration.rawValue) integration is not enabled")
                }
                throw CommandError("unknown request \"\(name)\"")
            }
        } catch {
            return .failure(error)
        }
    }

    private func healthCheck() -> JSONValue {
        let uptime = ContinuousClock.now - startedAt
        var integrations: [String: JSONValue] = [:]
        for (integration, status) in integrationStatus { integrations[integration.rawValue] = .string(status.state.rawValue) }
        let healthy = integrationStatus.values.allSatisfy(\.isHealthy)
        return [
            "healthy": .bool(healthy), "uptime_s": .number(Double(uptime.components.seconds)),
            "devices": .number(Double(devices.count)), "integrations": .object(integrations),
            "refused_messages": .number(Double(refusedMessages)),
        ]
    }

    private func rename(_ fields: [String: JSONValue]) throws(CommandError) -> JSONValue {
        guard let from = fields["from"]?.stringValue, let to = fields["to"]?.stringValue else {
            throw CommandError("device/rename needs \"from\" (id or alias) and \"to\"")
        }
        guard let record = lookup(from) else { throw CommandError("no device \"\(from)\"") }
        if let problem = config.aliasProblem(to, for: record.id) { throw CommandError("alias \"\(to)\" \(problem)") }
        if let owner = aliasIndex[to], owner != record.id { throw CommandError("alias \"\(to)\" is taken by \(owner)") }
        let haRename = fields["homeassistant_rename"]?.boolValue ?? false
        applyAlias(to, for: record, homeassistantRename: haRename)
        savedAliases[record.id] = to
        options.saveAliases?(savedAliases)
        return ["from": .string(record.alias), "to": .string(to), "id": .string(record.id.rawValue), "homeassistant_rename": .bool(haRename)]
    }

    /// Moves a device to a new alias: old retained topics cleared, new ones published.
    func applyAlias(_ alias: String, for record: DeviceRecord, homeassistantRename: Bool) {
        guard alias != record.alias else { return }
        clearRetained(topics.state(record.alias))
        clearRetained(topics.availability(record.alias))
        var renamed = record
        renamed.alias = alias
        aliasIndex[record.alias] = nil
        aliasIndex[alias] = record.id
        listenForCommands(to: alias)
        devices[record.id] = renamed
        publishAvailability(renamed)
        publishState(renamed)
        if homeassistantRename {
            // Home Assistant re-derives entity ids only for new entities; a pause avoids `_2` suffixes.
            clearDiscovery(for: record)
            schedule(.rediscover(record.id), after: options.rediscoverDelay)
        } else {
            publishDiscovery(for: renamed)
        }
        publishEvent("device_renamed", ["id": .string(record.id.rawValue), "from": .string(record.alias), "to": .string(alias), "homeassistant_rename": .bool(homeassistantRename)])
        logger.info("Device renamed", metadata: ["device.id": "\(record.id)", "from": "\(record.alias)", "to": "\(alias)"])
        scheduleInventory()
    }

    private func remove(_ fields: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        guard let key = fields["id"]?.stringValue else { throw CommandError("device/remove needs \"id\" (id or alias)") }
        guard let record = lookup(key) else { throw CommandError("no device \"\(key)\"") }
        forgetDevice(record)
        if savedAliases.removeValue(forKey: record.id) != nil { options.saveAliases?(savedAliases) }
        // A removed device is forgotten entirely, remembered connections included.
        if remembered.remove(record.id) != nil { options.saveRemembered?(remembered) }
        await drivers[record.id.integration]?.forget(record.id)
        publishEvent("device_removed", ["id": .string(record.id.rawValue), "alias": .string(record.alias), "reason": "request"])
        return ["id": .string(record.id.rawValue), "alias": .string(record.alias)]
    }

    private func setOptions(_ fields: [String: JSONValue]) throws(CommandError) -> JSONValue {
        let options = fields["options"]?.objectValue ?? fields
        guard !options.isEmpty else { throw CommandError("options needs {\"options\": {\"log_level\": \"debug\"}}") }
        for key in options.keys where key != "log_level" {
            throw CommandError("option \"\(key)\" cannot be changed at run time (supported: log_level)")
        }
        guard let name = options["log_level"]?.stringValue, let level = Logger.Level(configName: name) else {
            throw CommandError("log_level must be one of trace, debug, info, notice, warning, error")
        }
        logLevel.current = level
        config.logLevel = level
        logger.notice("Log level changed", metadata: ["log_level": "\(level)"])
        publishInfo()
        return ["log_level": .string(level.rawValue), "restart_required": false]
    }
}

extension BridgeService {
    /// The saved aliases the current rules accept, and why each of the others is refused (without quoting it:
    /// a refused alias may be thousands of bytes or hold control characters).
    static func usableAliases(
        _ saved: [DeviceID: String], _ config: Configuration
    ) -> (usable: [DeviceID: String], refused: [(DeviceID, String)]) {
        var usable: [DeviceID: String] = [:]
        var refused: [(DeviceID, String)] = []
        for (id, alias) in saved.sorted(by: { $0.key < $1.key }) {
            if let problem = config.aliasProblem(alias, for: id) { refused.append((id, problem)) } else { usable[id] = alias }
        }
        return (usable, refused)
    }
}
