import BLEFormats
import BLEModels
import BridgeCore
import BlueZ
import DBus
import Support

/// GATT on MQTT: `ble/read`, `ble/write` and `ble/notify` on any characteristic of a device.
///
/// Each operation connects the device first when it is in range and not connected (as a manual connect, so
/// no policy takes the connection away meanwhile), waits its turn (one operation per characteristic, as
/// BlueZ allows one), retries BlueZ's `InProgress` with a short back-off, and gives up after its timeout.
extension BLEDriver {
    /// `ble/read` `{"device", "characteristic", "service"?}` → `{"characteristic", "hex", "value"?}`.
    func gattRead(_ payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        let target = try await gattTarget(payload)
        let bytes = try await exclusive(target) { () async throws(CommandError) in
            let reply = try await self.gattCall(target, "ReadValue", [.vardict([:])])
            guard let bytes = reply.first?.bytes else { throw CommandError("BlueZ answered ReadValue without bytes") }
            return bytes
        }
        return gattReading(target.characteristic, bytes)
    }

    /// `ble/write` `{"device", "characteristic", "hex" | "text", "response"?}`: answers once BlueZ has.
    func gattWrite(_ payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        let bytes: [UInt8]
        switch (payload["hex"]?.stringValue, payload["text"]?.stringValue) {
        case (let hex?, nil):
            do throws(HexError) { bytes = try Hex.bytes(hex) } catch { throw CommandError("ble/write: \(error)") }
        case (nil, let text?): bytes = Array(text.utf8)
        default: throw CommandError("ble/write needs \"hex\" or \"text\" (one of them, as a string)")
        }
        guard (1...512).contains(bytes.count) else {
            throw CommandError("ble/write: a value is 1 to 512 bytes, this one is \(bytes.count)")
        }
        let target = try await gattTarget(payload)
        let flags = target.characteristic.flags
        let withResponse = payload["response"]?.boolValue ?? !(flags.contains("write-without-response") && !flags.contains("write"))
        let needed = withResponse ? "write" : "write-without-response"
        guard flags.isEmpty || flags.contains(needed) else {
            throw CommandError("\(target.name) does not allow \(needed) (its flags: \(flags.joined(separator: ", ")))")
        }
        try await exclusive(target) { () async throws(CommandError) in
            _ = try await self.gattCall(
                target, "WriteValue", [.bytes(bytes), .vardict(["type": .string(withResponse ? "request" : "command")])])
        }
        return ["characteristic": .string(target.uuid.description), "hex": .string(Hex.string(bytes)), "response": .bool(withResponse)]
    }

    /// `ble/notify` `{"device", "characteristic", "enable"?}`: values then arrive in the device's state, and the
    /// subscription is renewed after every reconnect until disabled.
    func gattNotify(_ payload: [String: JSONValue]) async throws(CommandError) -> JSONValue {
        let enable = payload["enable"]?.boolValue ?? true
        let target = try await gattTarget(payload)
        let flags = target.characteristic.flags
        guard !enable || flags.isEmpty || flags.contains("notify") || flags.contains("indicate") else {
            throw CommandError("\(target.name) neither notifies nor indicates (its flags: \(flags.joined(separator: ", ")))")
        }
        let path = target.characteristic.path
        if enable {
            gattSubscriptions[target.device, default: []].insert(path)
        } else {
            gattSubscriptions[target.device]?.remove(path)
        }
        try await exclusive(target) { () async throws(CommandError) in
            _ = try await self.gattCall(target, enable ? "StartNotify" : "StopNotify", [])
        }
        subscriptionChanged(target.device, target.uuid, enabled: enable)
        return ["characteristic": .string(target.uuid.description), "enabled": .bool(enable)]
    }

    /// What a read of `characteristic` reports: the raw hex, and for a characteristic the bridge decodes, its
    /// `value` as the state has it (one value, or an object of them for a measurement of several fields).
    func gattReading(_ characteristic: BlueZCharacteristic, _ bytes: [UInt8]) -> JSONValue {
        var reading: [String: JSONValue] = [
            "characteristic": .string(characteristic.uuid?.description ?? ""), "hex": .string(Hex.string(bytes)),
        ]
        guard let uuid = characteristic.uuid, let decoded = StandardCharacteristic.decode(uuid, bytes) else { return .object(reading) }
        switch decoded {
        case .reading(let values) where values.measurements.count == 1: reading["value"] = values.measurements[0].value.json
        case .reading(let values):
            reading["value"] = .object(Dictionary(values.measurements.map { ($0.key, $0.value.json) }) { $1 })
        case .encrypted, .wrongKey: reading["error"] = "the value is encrypted"
        case .undecodable(let failure): reading["error"] = .string("the value does not decode: \(failure)")
        }
        return .object(reading)
    }

    /// Calls a GATT method, retrying `InProgress` (another operation of BlueZ's own on it) until the deadline.
    private func gattCall(_ target: GattTarget, _ method: String, _ arguments: [DBusValue]) async throws(CommandError) -> [DBusValue] {
        var pause = Duration.milliseconds(10)
        while true {
            let remaining = target.deadline - ContinuousClock.now
            guard remaining > .zero else { throw CommandError("\(method) on \(target.name) timed out") }
            do throws(DBusError) {
                return try await target.bus.call(
                    target.characteristic.path, BlueZInterface.characteristic, method, arguments, timeout: remaining)
            } catch where error.name == "org.bluez.Error.InProgress" {
                try? await Task.sleep(for: pause)
                pause = min(pause * 2, .milliseconds(200))
            } catch where error.code == .timedOut {
                throw CommandError("\(method) on \(target.name) timed out")
            } catch {
                throw CommandError("\(method) on \(target.name) failed: \(error.name.map { "\($0): " } ?? "")\(error.message)")
            }
        }
    }
}
