import BridgeCore

/// `/set` and `/get`: one parser, then the owning driver.
extension BridgeService {
    func handleCommand(_ target: CommandTopic, payload: [UInt8]) async {
        guard let record = lookup(target.alias) else {
            reject(alias: target.alias, id: nil, CommandError("no device with alias \"\(target.alias)\""))
            return
        }
        // In a cluster, the device's owner runs its commands; the others hear the same message and leave it.
        guard publishes(record.id) else {
            logger.debug("Command left to the device's owner", metadata: ["device.id": "\(record.id)"])
            return
        }
        // A command that came after the claim this bridge gained goes on from the state the claim carried.
        await applyCarried(record.id)
        guard let driver = drivers[record.id.integration] else {
            reject(alias: record.alias, id: record.id, CommandError("the \(record.id.integration.rawValue) integration is not running"))
            return
        }
        do throws(CommandError) {
            let command: DeviceCommand
            switch target.verb {
            case .set:
                command = .set(try CommandParser.parseSet(payload: payload, attribute: target.attribute, device: record.descriptor))
            case .get:
                command = .refresh(try CommandParser.parseGet(payload: payload, attribute: target.attribute, device: record.descriptor))
            }
            if target.verb == .set { carryIfDropped(record, payload: payload, attribute: target.attribute) }
            logger.debug("Command", metadata: ["device.id": "\(record.id)", "command": "\(command)"])
            try await driver.perform(command, on: record.id)
        } catch {
            reject(alias: record.alias, id: record.id, error)
        }
    }

    /// Refuses a command before parsing it (e.g. its payload was too large to keep).
    func refuseCommand(_ target: CommandTopic, _ error: CommandError) {
        let record = lookup(target.alias)
        reject(alias: record?.alias ?? target.alias, id: record?.id, error)
    }

    func reject(alias: String, id: DeviceID?, _ error: CommandError) {
        warnRepeated(
            "refused commands", source: alias, "Command refused", metadata: ["alias": "\(alias)", "error": "\(error.message)"])
        var data: [String: JSONValue] = ["alias": .string(alias), "error": .string(error.message)]
        if let id { data["id"] = .string(id.rawValue) }
        publishRepeatedEvent("command_failed", source: alias, data)
    }
}
