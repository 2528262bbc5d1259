import BLEFormats
import BLEModels
import BridgeCore
import Support

/// Bindkeys: the config's, and those `ble/bindkey` sets while the bridge runs.
extension BLEDriver {
    /// The key for a device's adverts: one set by `ble/bindkey` since the start, else the config's.
    func bindkey(for address: BluetoothAddress) -> BindKey? {
        if let runtime = runtimeKeys[address] { return runtime }
        return settings.bindkeys[address]
    }

    /// `ble/bindkey` `{"device": id or alias, "key": "<32 hex digits>"}` (`"address"` instead of `"device"` for a
    /// device not seen yet) sets a device's key until the bridge stops, over the config's; `"key": null` goes back
    /// to the config's. The device's key problems are reported afresh, and the key never appears in the answer.
    func setBindkey(_ payload: [String: JSONValue]) throws(CommandError) -> JSONValue {
        let address: BluetoothAddress
        if let text = payload["device"]?.stringValue {
            guard let id = DeviceID(text), let entry = tracked.values.first(where: { $0.id == id }) else {
                throw CommandError("no BLE device \(text) has been seen; give its \"address\"")
            }
            address = entry.address
        } else if let text = payload["address"]?.stringValue {
            do throws(BluetoothAddressError) { address = try BluetoothAddress(text) } catch {
                throw CommandError(error.description)
            }
        } else {
            throw CommandError("ble/bindkey needs \"device\" (id or alias) or \"address\", and \"key\"")
        }
        switch payload["key"] {
        case .null?:
            runtimeKeys[address] = nil
        case .string(let text)?:
            do throws(BindKeyError) { runtimeKeys[address] = try BindKey(hex: text) } catch {
                throw CommandError(error.description)
            }
        default:
            throw CommandError("ble/bindkey needs \"key\": 32 hex digits (24 for MiBeacon v2/v3), or null")
        }
        // What was learnt with the old key no longer holds.
        for (path, entry) in tracked where entry.address == address {
            var updated = entry
            updated.keyProblems = []
            updated.counters = [:]
            tracked[path] = updated
        }
        logger.info("Bindkey set", metadata: ["address": "\(address)", "cleared": "\(payload["key"] == .null)"])
        return ["address": .string(address.description), "key": payload["key"] == .null ? .null : "***"]
    }
}
